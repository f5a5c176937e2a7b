// find_default_font (OSWorld docs.py): Writer's default font as saved in registrymodifications.xcu.
import { requireField, rulesOf, filePath } from '../arguments.ts';
import { children, descendants, readXcu, valueText, xcuItems } from '../../formats/office/registry-xcu.ts';

/**
 * find_default_font(xcu, {font_name}): the last `<value>` of a `prop oor:name="Standard"` under an item with
 * oor:path "/org.openoffice.Office.Writer/DefaultFont" must equal font_name. An unreadable file means no font (0).
 */
export async function findDefaultFont(result: unknown, expected: unknown): Promise<number> {
  const wanted = requireField<string>(rulesOf(expected, 'find_default_font'), 'font_name', 'find_default_font');
  const file = filePath(result, 'find_default_font result');
  if (!file) return 0;
  let font: string | null = null;
  try {
    const root = await readXcu(file);
    for (const item of xcuItems(root, '/org.openoffice.Office.Writer/DefaultFont')) {
      for (const prop of descendants(item, 'prop').filter((p) => p.attrs['oor:name'] === 'Standard')) {
        for (const value of children(prop, 'value')) font = valueText(value);
      }
    }
  } catch {
    font = null;
  }
  return font === wanted ? 1 : 0;
}

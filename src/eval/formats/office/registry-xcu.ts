// LibreOffice's user configuration (registrymodifications.xcu): `<item oor:path="…"><prop oor:name="…"><value>`.
// Used by find_default_font, check_presenter_console_disable and check_auto_saving_time.
import { readFile } from 'node:fs/promises';
import { children, descendants, leadingText, parseXml } from './xml.ts';
import type { XmlElement } from './xml.ts';

/** The parsed file; throws when it is unreadable or not XML (callers decide, as OSWorld's try/except does). */
export async function readXcu(file: string): Promise<XmlElement> {
  return parseXml(await readFile(file, 'utf8'), file);
}

/** `root.findall('.//item')` whose oor:path equals `itemPath`. */
export function xcuItems(root: XmlElement, itemPath: string): XmlElement[] {
  return descendants(root, 'item').filter((item) => item.attrs['oor:path'] === itemPath);
}

/** A prop's `<value>` text as ElementTree's `.text` gives it (null for an empty element). */
export function valueText(value: XmlElement): string | null {
  return leadingText(value);
}

export { children, descendants };

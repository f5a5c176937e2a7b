// An .odt read the way OSWorld reads it with odfpy (`odf.opendocument.load`).
//
// odfpy registers elements in parse order, content.xml before styles.xml, so `getElementsByType(P)` lists every
// `text:p` of the content (body, tables, frames) in document order and then those of styles.xml (headers and
// footers of master pages). `text:h` headings are not `text:p` and are not listed. OSWorld's paragraph text keeps
// only the text nodes directly inside `text:p` and inside its direct `text:span` children: `text:s` (extra spaces),
// `text:tab`, `text:line-break`, links (`text:a`) and nested spans contribute nothing.
import { openPackage, readXmlPart } from '../office/package.ts';
import type { OfficePackage } from '../office/package.ts';
import { child, children, descendants } from '../office/xml.ts';
import type { XmlElement } from '../office/xml.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface Odt {
  file: string;
  pkg: OfficePackage;
  /** content.xml then styles.xml roots (either may be missing in a broken file). */
  parts: XmlElement[];
}

export async function openOdt(file: string): Promise<Odt> {
  const pkg = await openPackage(file);
  const parts: XmlElement[] = [];
  for (const name of ['content.xml', 'styles.xml']) {
    const part = await readXmlPart(pkg, name);
    if (part) parts.push(part);
  }
  if (!parts.length) throw new MalformedInputError(`${file} has neither content.xml nor styles.xml (not an OpenDocument file?)`);
  return { file, pkg, parts };
}

export function odtParagraphTexts(odt: Odt): string[] {
  return odt.parts.flatMap((part) => descendants(part, 'text:p')).map(odtParagraphText);
}

function odtParagraphText(p: XmlElement): string {
  let out = '';
  for (const node of p.children) {
    if (typeof node === 'string') out += node;
    else if (node.name === 'text:span') for (const inner of node.children) if (typeof inner === 'string') out += inner;
  }
  return out;
}

/**
 * check_highlighted_words' test: some `text:span` whose `text:style-name` names an automatic style (content.xml's,
 * then styles.xml's) having a child with `fo:background-color` exactly "#ffff00".
 */
export function hasYellowHighlightedSpan(odt: Odt): boolean {
  const automaticStyles = odt.parts.flatMap((part) => children(child(part, 'office:automatic-styles')));
  for (const span of odt.parts.flatMap((part) => descendants(part, 'text:span'))) {
    const styleName = span.attrs['text:style-name'];
    if (!styleName) continue;
    for (const style of automaticStyles) {
      if (style.attrs['style:name'] !== styleName) continue;
      if (children(style).some((prop) => prop.attrs['fo:background-color'] === '#ffff00')) return true;
    }
  }
  return false;
}

// A small element tree over the DOM of ../xml-dom.ts, with namespace prefixes removed. OOXML parts are read by local
// names (`sheetView`, `sparkline`), which is how openpyxl and OSWorld's lxml selectors see them too.
import { type DomElement, attributesOf, childNodesOf, isDomElement, isText, parseDom } from '../xml-dom.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated direct text content. */
  text: string;
}

function build(element: DomElement): XmlElement {
  const attrs: Record<string, string> = {};
  for (const attr of attributesOf(element)) {
    if (attr.name === 'xmlns' || attr.name.startsWith('xmlns:')) continue;
    attrs[attr.localName ?? attr.name] = attr.value;
  }
  const built: XmlElement = { name: element.localName, attrs, children: [], text: '' };
  for (const child of childNodesOf(element)) {
    if (isText(child)) built.text += child.data;
    else if (isDomElement(child)) built.children.push(build(child));
  }
  return built;
}

/** Parses an XML document and returns its root element. */
export function parseXml(xml: string, what: string): XmlElement {
  let root: DomElement | null;
  try {
    root = parseDom(xml);
  } catch (error) {
    throw new MalformedInputError(`${what}: not well-formed XML (${(error as Error).message})`);
  }
  if (!root) throw new MalformedInputError(`${what}: the XML has no root element`);
  return build(root);
}

export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

export function children(element: XmlElement | undefined, name: string): XmlElement[] {
  return element ? element.children.filter((c) => c.name === name) : [];
}

/** Every descendant with this local name, in document order. */
export function descendants(element: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of element.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}

/** Decodes the five XML entities and numeric character references (for the regex-scanned sheet data). */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity] as string;
  });
}

// A small element tree over fast-xml-parser's ordered output, with namespace prefixes removed. OOXML parts are read
// by local names (`sheetView`, `sparkline`), which is how openpyxl and OSWorld's lxml selectors see them too.
import { XMLParser } from 'fast-xml-parser';

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Concatenated direct text content. */
  text: string;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
});

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function build(name: string, node: OrderedNode): XmlElement {
  const element: XmlElement = { name, attrs: { ...(node[':@'] ?? {}) }, children: [], text: '' };
  for (const child of (node[name] as OrderedNode[]) ?? []) {
    if ('#text' in child) {
      element.text += String(child['#text']);
      continue;
    }
    const childName = Object.keys(child).find((key) => key !== ':@');
    if (childName && !childName.startsWith('?')) element.children.push(build(childName, child));
  }
  return element;
}

/** Parses an XML document and returns its root element. */
export function parseXml(xml: string, what: string): XmlElement {
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(xml) as OrderedNode[];
  } catch (error) {
    throw new Error(`${what}: not well-formed XML (${(error as Error).message})`);
  }
  for (const node of nodes) {
    const name = Object.keys(node).find((key) => key !== ':@');
    if (name && !name.startsWith('?')) return build(name, node);
  }
  throw new Error(`${what}: the XML has no root element`);
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

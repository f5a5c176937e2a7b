// A small ordered XML tree for OOXML/ODF parts, built from the DOM of ../xml-dom.ts: run order, spaces and literal
// text kept, namespaces resolved so code can ask for `w:p` or `a:r` whatever prefix the file used.
import { type DomAttr, type DomElement, attributesOf, childNodesOf, isDomElement, isText, parseDom } from '../xml-dom.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface XmlElement {
  /** Qualified name with the canonical prefix for known namespaces (`w:p`, `a:t`, `text:span`), else as written. */
  name: string;
  /** Attributes keyed the same way (`w:val`, `r:embed`); unprefixed attributes keep their bare name. */
  attrs: Record<string, string>;
  children: XmlNode[];
}
type XmlNode = XmlElement | string;

/** Canonical prefixes for the namespaces the office metrics read. */
const CANONICAL: Record<string, string> = {
  'http://schemas.openxmlformats.org/wordprocessingml/2006/main': 'w',
  'http://schemas.openxmlformats.org/drawingml/2006/main': 'a',
  'http://schemas.openxmlformats.org/presentationml/2006/main': 'p',
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships': 'r',
  'http://schemas.openxmlformats.org/package/2006/relationships': 'rel',
  'http://schemas.openxmlformats.org/package/2006/content-types': 'ct',
  'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing': 'wp',
  'http://schemas.openxmlformats.org/drawingml/2006/picture': 'pic',
  'http://schemas.openxmlformats.org/markup-compatibility/2006': 'mc',
  'http://www.w3.org/XML/1998/namespace': 'xml',
  'urn:oasis:names:tc:opendocument:xmlns:office:1.0': 'office',
  'urn:oasis:names:tc:opendocument:xmlns:style:1.0': 'style',
  'urn:oasis:names:tc:opendocument:xmlns:text:1.0': 'text',
  'urn:oasis:names:tc:opendocument:xmlns:table:1.0': 'table',
  'urn:oasis:names:tc:opendocument:xmlns:drawing:1.0': 'draw',
  'urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0': 'fo',
  'urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0': 'svg',
  'http://www.w3.org/1999/xlink': 'xlink',
  'http://openoffice.org/2001/registry': 'oor',
};

/** Parses an XML document and returns its root element. Throws a clear error naming `what` when it is not XML. */
export function parseXml(text: string, what = 'XML'): XmlElement {
  let root: DomElement | null;
  try {
    root = parseDom(text);
  } catch (error) {
    throw new MalformedInputError(`${what} is not well-formed XML: ${(error as Error).message}`);
  }
  if (!root) throw new MalformedInputError(`${what} has no root element`);
  return build(root);
}

function build(element: DomElement): XmlElement {
  const attrs: Record<string, string> = {};
  for (const attr of attributesOf(element)) {
    if (attr.name === 'xmlns' || attr.name.startsWith('xmlns:')) continue;
    attrs[attr.name.includes(':') ? canonical(attr) : attr.name] = attr.value;
  }
  const children: XmlNode[] = [];
  for (const child of childNodesOf(element)) {
    if (isText(child)) {
      if (child.data) children.push(child.data);
    } else if (isDomElement(child)) children.push(build(child));
  }
  return { name: canonical(element), attrs, children };
}

/** `w:p` for a name in a known namespace whatever its prefix; as written otherwise (unknown or unbound prefix). */
function canonical(node: DomElement | DomAttr): string {
  const known = node.namespaceURI ? CANONICAL[node.namespaceURI] : undefined;
  return known ? `${known}:${node.localName}` : node.nodeName;
}

function isElement(node: XmlNode | undefined): node is XmlElement {
  return typeof node === 'object' && node !== null;
}

/** Element children, optionally only those with the given name(s). */
export function children(el: XmlElement | undefined, ...names: string[]): XmlElement[] {
  if (!el) return [];
  const out: XmlElement[] = [];
  for (const child of el.children) if (isElement(child) && (!names.length || names.includes(child.name))) out.push(child);
  return out;
}

export function child(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) if (isElement(c) && c.name === name) return c;
  return undefined;
}

/** Follows a path of child names: `path(sp, 'p:spPr', 'a:xfrm', 'a:off')`. */
export function path(el: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = el;
  for (const name of names) current = child(current, name);
  return current;
}

/** All descendants (not the element itself) with the given name, in document order. */
export function descendants(el: XmlElement | undefined, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (node: XmlElement): void => {
    for (const c of node.children) {
      if (!isElement(c)) continue;
      if (c.name === name) out.push(c);
      walk(c);
    }
  };
  if (el) walk(el);
  return out;
}

/** First descendant with that name (ElementTree's `find('.//x')`). */
export function descendant(el: XmlElement | undefined, name: string): XmlElement | undefined {
  if (!el) return undefined;
  for (const c of el.children) {
    if (!isElement(c)) continue;
    if (c.name === name) return c;
    const found = descendant(c, name);
    if (found) return found;
  }
  return undefined;
}

/** The element's own text children joined (lxml's `.text` plus tails of children: all direct text). */
export function ownText(el: XmlElement | undefined): string {
  if (!el) return '';
  let out = '';
  for (const c of el.children) if (typeof c === 'string') out += c;
  return out;
}

/** ElementTree's `.text`: the text before the first child element, or null when there is none. */
export function leadingText(el: XmlElement): string | null {
  let out = '';
  for (const c of el.children) {
    if (typeof c !== 'string') break;
    out += c;
  }
  return out === '' ? null : out;
}

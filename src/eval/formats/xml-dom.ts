// The one XML parser of the file readers: xmldom, strict (a document that is not well-formed throws, as lxml's parser
// does), with entities and character references decoded and namespaces resolved. The typed views below are the few
// DOM members the readers use (xmldom's own types are the browser DOM's, which the Node build does not include).
import { DOMParser, onErrorStopParsing } from '@xmldom/xmldom';

export interface DomNode {
  nodeType: number;
  nodeName: string;
}
export interface DomText extends DomNode {
  data: string;
}
export interface DomAttr extends DomNode {
  name: string;
  localName: string;
  namespaceURI: string | null;
  value: string;
}
export interface DomElement extends DomNode {
  localName: string;
  namespaceURI: string | null;
  attributes: { length: number; item(index: number): DomAttr | null };
  childNodes: { length: number; item(index: number): DomNode | null };
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const CDATA_SECTION_NODE = 4;

/** The document's root element (null when there is none). Throws on XML that is not well-formed. */
export function parseDom(xml: string): DomElement | null {
  const doc = new DOMParser({ onError: onErrorStopParsing }).parseFromString(xml, 'text/xml');
  return doc.documentElement as unknown as DomElement | null;
}

export const isDomElement = (node: DomNode): node is DomElement => node.nodeType === ELEMENT_NODE;
/** Text, CDATA included (its content is text to every reader here). */
export const isText = (node: DomNode): node is DomText => node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE;

export function* childNodesOf(element: DomElement): Generator<DomNode> {
  for (let i = 0; i < element.childNodes.length; i++) yield element.childNodes.item(i)!;
}

export function* attributesOf(element: DomElement): Generator<DomAttr> {
  for (let i = 0; i < element.attributes.length; i++) yield element.attributes.item(i)!;
}

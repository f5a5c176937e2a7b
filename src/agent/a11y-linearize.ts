// The accessibility-tree observation as OSWorld's prompt agents see it (mm_agents/agent.py
// `linearize_accessibility_tree`, `judge_node` in accessibility_tree_wrap/heuristic_retrieve.py):
// keep the nodes a person could see and act on, one TSV row each, trimmed to a token budget.

import { DOMParser } from '@xmldom/xmldom';
import { MalformedInputError } from '../errors.ts';

const STATE_NS = 'https://accessibility.ubuntu.example.org/ns/state';
const COMPONENT_NS = 'https://accessibility.ubuntu.example.org/ns/component';
// OSWorld reads class and description from the *windows* attributes namespace even on Ubuntu (a slip in
// mm_agents/agent.py), so on Ubuntu trees those two columns are always empty. Kept, so prompts match OSWorld's.
const ATTRIBUTES_NS_AS_OSWORLD_READS_IT = 'https://accessibility.windows.example.org/ns/attributes';

export const A11Y_TSV_HEADER = 'tag\tname\ttext\tclass\tdescription\tposition (top-left x&y)\tsize (w&h)';

const KEPT_TAGS = new Set([
  'alert', 'canvas', 'check-box', 'combo-box', 'entry', 'icon', 'image', 'paragraph', 'scroll-bar', 'section',
  'slider', 'static', 'table-cell', 'terminal', 'text', 'netuiribbontab', 'start', 'trayclockwclass',
  'traydummysearchcontrol', 'uiimage', 'uiproperty', 'uiribboncommandbar',
]);
const KEPT_SUFFIXES = ['item', 'button', 'heading', 'label', 'scrollbar', 'searchbox', 'textbox', 'link', 'tabelement',
  'textfield', 'textarea', 'menu'];

/** The parts of an XML element the filter and the linearisation read. */
interface A11yElement {
  tagName: string;
  getAttribute(name: string): string | null;
  getAttributeNS(ns: string, name: string): string | null;
  childNodes: ArrayLike<{ nodeType: number; nodeValue: string | null }>;
}

/** OSWorld's `judge_node` for Ubuntu trees (check_image = false). */
function judgeNode(node: A11yElement): boolean {
  const tag = node.tagName;
  const kindKept = tag.startsWith('document') || KEPT_SUFFIXES.some((suffix) => tag.endsWith(suffix)) || KEPT_TAGS.has(tag);
  if (!kindKept) return false;
  const state = (name: string) => node.getAttributeNS(STATE_NS, name) === 'true';
  if (!(state('showing') && state('visible'))) return false;
  if (!(state('enabled') || state('editable') || state('expandable') || state('checkable'))) return false;
  if (!(node.getAttribute('name') || elementText(node))) return false;
  const position = pair(node.getAttributeNS(COMPONENT_NS, 'screencoord'));
  const size = pair(node.getAttributeNS(COMPONENT_NS, 'size'));
  return position[0] >= 0 && position[1] >= 0 && size[0] > 0 && size[1] > 0;
}

/** The OSWorld TSV of the kept nodes, header first, in document order. Throws on XML that does not parse. */
export function linearizeAccessibilityTree(xml: string): string {
  const rows = [A11Y_TSV_HEADER];
  for (const node of elementsInDocumentOrder(parseXml(xml))) {
    if (!judgeNode(node)) continue;
    const text = elementText(node);
    rows.push([
      node.tagName,
      node.getAttribute('name') ?? '',
      text ? csvQuoted(text) : '""',
      node.getAttributeNS(ATTRIBUTES_NS_AS_OSWORLD_READS_IT, 'class') ?? '',
      node.getAttributeNS(ATTRIBUTES_NS_AS_OSWORLD_READS_IT, 'description') ?? '',
      node.getAttributeNS(COMPONENT_NS, 'screencoord') ?? '',
      node.getAttributeNS(COMPONENT_NS, 'size') ?? '',
    ].join('\t'));
  }
  return rows.join('\n');
}

/**
 * `linearizeAccessibilityTree` trimmed to about `maxTokens` tokens, ending in "[...]\n" when cut (OSWorld trims to
 * 10,000 tokens of tiktoken's gpt-4 encoding). We have no tiktoken here: tokens are *estimated* (see estimateTokens),
 * on the generous side, so the kept text fits the budget of a GPT-4-style tokenizer.
 */
export function linearizeAndTrim(xml: string, maxTokens = 10_000): string {
  return trimToTokenBudget(linearizeAccessibilityTree(xml), maxTokens);
}

// The pre-tokenisation pattern of tiktoken's cl100k_base (GPT-4): every piece is at least one token.
const PIECES = /'(?:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+/giu;

function pieceTokens(piece: string): number {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(piece)) return [...piece].length; // non-ASCII scripts: about one token per character
  const letters = piece.match(/\p{L}/gu)?.length ?? 0;
  if (letters > 0) return Math.max(1, Math.ceil(letters / 5)); // common words (with their leading space) are one token
  if (/^\s+$/.test(piece)) return 1;
  if (/^\p{N}+$/u.test(piece)) return 1;
  return Math.max(1, Math.ceil(piece.trim().length / 2)); // punctuation merges less often
}

/** An estimate of a text's GPT-4 token count (cl100k pre-tokenisation, then a per-piece length rule). */
export function estimateTokens(text: string): number {
  let total = 0;
  for (const match of text.matchAll(PIECES)) total += pieceTokens(match[0]);
  return total;
}

/** Cut `text` where its estimated token count passes `maxTokens`, and mark the cut with "[...]\n" as OSWorld does. */
export function trimToTokenBudget(text: string, maxTokens: number): string {
  let total = 0;
  for (const match of text.matchAll(PIECES)) {
    total += pieceTokens(match[0]);
    if (total > maxTokens) return `${text.slice(0, match.index)}[...]\n`;
  }
  return text;
}

// ── XML helpers ────────────────────────────────────────────────────────────

function parseXml(xml: string): A11yElement {
  const doc = new DOMParser({
    onError(level, message) {
      if (level !== 'warning') throw new MalformedInputError(`accessibility tree: the XML does not parse: ${message}`);
    },
  }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement;
  if (!root) throw new MalformedInputError('accessibility tree: the XML has no root element');
  return root as unknown as A11yElement;
}

/** ElementTree's `root.iter()`: the element itself, then its descendants depth first. */
function* elementsInDocumentOrder(root: A11yElement): Generator<A11yElement> {
  const stack: A11yElement[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    yield node;
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) {
      if (children[i].nodeType === 1) stack.push(children[i] as unknown as A11yElement);
    }
  }
}

/** ElementTree's `element.text`: the text before the first child element ('' when there is none). */
function elementText(node: A11yElement): string {
  let text = '';
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i];
    if (child.nodeType === 3 || child.nodeType === 4) text += child.nodeValue ?? '';
    else if (child.nodeType === 1) break;
  }
  return text;
}

/** OSWorld parses "(x, y)" with Python's eval; a missing attribute counts as (-1, -1). */
function pair(value: string | null): [number, number] {
  const match = /^\(\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*\)$/.exec(value?.trim() ?? '');
  return match ? [Number(match[1]), Number(match[2])] : [-1, -1];
}

/** A text with a double quote is written as a CSV field: quoted, inner quotes doubled. */
function csvQuoted(text: string): string {
  return text.includes('"') ? `"${text.replaceAll('"', '""')}"` : text;
}

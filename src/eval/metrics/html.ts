// Markup documents: HTML pages compared as BeautifulSoup trees (chrome.py's compare_htmls, vscode.py's
// check_html_background_image) and the desktop's accessibility-tree XML queried with XPath or CSS selectors
// (general.py's check_accessibility_tree).
import type { Metric, Options } from '../registry.ts';
import { fuzzRatio } from './text-similarity.ts';
import { parseHtml } from '../formats/html-tree.ts';
import type { HtmlElement, HtmlNode } from '../formats/html-tree.ts';
import { pythonFalsy } from '../../python/equality.ts';
import { pythonStrip } from '../../python/str.ts';
import { readPythonText } from '../../python/io.ts';
import { cssSelectElements, elementText, parseXml, xpathElements } from '../formats/xml-query.ts';
import type { Namespaces } from '../formats/xml-query.ts';
import { MetricOptionsError } from '../errors.ts';
import { MalformedInputError } from '../../errors.ts';

// BeautifulSoup splits these attributes into lists of words, so their order of spaces does not matter.
const MULTI_VALUED = new Set(['class', 'rel', 'rev', 'accept-charset', 'headers', 'accesskey', 'dropzone']);

/** Every node in document order, as BeautifulSoup's `recursiveChildGenerator()` yields them. */
function walk(node: HtmlElement, out: HtmlNode[] = []): HtmlNode[] {
  for (const child of node.children) {
    out.push(child);
    if (child.kind === 'element') walk(child, out);
  }
  return out;
}

/** `Tag.text`: its strings, without comments or script/style contents. */
function tagText(el: HtmlElement): string {
  let text = '';
  for (const child of el.children) {
    if (child.kind === 'text' && el.name !== 'script' && el.name !== 'style') text += child.value;
    else if (child.kind === 'element') text += tagText(child);
  }
  return text;
}

function attrMap(el: HtmlElement, skip?: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const [k, v] of el.attrs) {
    if (k === skip) continue;
    map.set(k, MULTI_VALUED.has(k) ? JSON.stringify(v.split(/[ \t\n\r\f]+/).filter(Boolean)) : v);
  }
  return map;
}

function sameMap(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

function sameNode(a: HtmlNode, b: HtmlNode, ignoreSdnum: boolean): boolean {
  if (a.kind !== 'element' || b.kind !== 'element') {
    // NavigableString == NavigableString compares the text; a Tag never equals a string.
    return a.kind !== 'element' && b.kind !== 'element' && a.value === b.value;
  }
  if (a.name !== b.name) return false;
  if (pythonStrip(tagText(a)) !== pythonStrip(tagText(b))) return false;
  if (!sameMap(attrMap(a), attrMap(b))) {
    return ignoreSdnum ? sameMap(attrMap(a, 'sdnum'), attrMap(b, 'sdnum')) : false;
  }
  return true;
}

/**
 * compare_htmls(a, b, ignore_sdnum=None): walks both trees in document order and compares node pairs (tag name,
 * stripped text, attributes; strings by value). OSWorld zips the two walks, so nodes past the end of the shorter
 * document are never compared: a result with extra trailing content still scores 1.
 */
export function compareHtmls(result: unknown, expected: unknown, options: Options = {}): number {
  const a = walk(parseHtml(readPythonText(String(result))));
  const b = walk(parseHtml(readPythonText(String(expected))));
  const ignoreSdnum = !pythonFalsy(options.ignore_sdnum ?? null);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (!sameNode(a[i], b[i], ignoreSdnum)) return 0;
  return 1;
}

/** Some `<style>` block contains exactly `background-image: url('<rules.value>')`. */
export function checkHtmlBackgroundImage(result: unknown, expected: unknown): number {
  if (pythonFalsy(result)) return 0;
  const value = (expected as Record<string, unknown> | undefined)?.value;
  if (value === undefined) throw new MetricOptionsError('check_html_background_image: rules.value is required');
  const needle = `background-image: url('${String(value)}')`;
  const styles = walk(parseHtml(readPythonText(String(result)))).filter((n): n is HtmlElement => n.kind === 'element' && n.name === 'style');
  return styles.some((style) => tagTextRaw(style).includes(needle)) ? 1 : 0;
}

function tagTextRaw(el: HtmlElement): string {
  return el.children.map((c) => (c.kind === 'element' ? tagTextRaw(c) : c.kind === 'text' ? c.value : '')).join('');
}

const A11Y_NAMESPACES: Record<string, Namespaces> = {
  ubuntu: nsMap('ubuntu', ['st:state', 'attr:attributes', 'cp:component', 'doc:document', 'docattr:document/attributes', 'txt:text', 'val:value', 'act:action']),
  windows: nsMap('windows', ['st:state', 'attr:attributes', 'cp:component', 'doc:document', 'docattr:document/attributes', 'txt:text', 'val:value', 'act:action', 'class:class']),
  macos: nsMap('macos', ['st:state', 'attr:attributes', 'cp:component', 'doc:document', 'txt:text', 'val:value', 'act:action', 'role:role']),
};

function nsMap(os: string, entries: string[]): Namespaces {
  return Object.fromEntries(entries.map((e) => e.split(':')).map(([prefix, path]) => [prefix, `https://accessibility.${os}.example.org/ns/${path}`]));
}

interface A11yRule {
  xpath?: string;
  selectors?: string[];
  text?: string;
  exact?: boolean;
}

/**
 * check_accessibility_tree(xml, [{xpath | selectors, text?, exact}], osname="ubuntu"): every rule must select at least
 * one element (else 0). With `text`, a rule scores the best element: 1/0 for `exact`, else rapidfuzz ratio/100 of the
 * element's `.text`; the result is the product over rules (a float). `exact` has no default in OSWorld: a rule with
 * `text` but no `exact` raises (KeyError), and so does this.
 */
export function checkAccessibilityTree(result: unknown, expected: unknown, options: Options = {}): number {
  if (typeof result !== 'string') throw new MalformedInputError('check_accessibility_tree: result must be the accessibility tree XML string');
  if (!Array.isArray(expected)) throw new MetricOptionsError('check_accessibility_tree: expected must be a list of rules');
  const osname = String(options.osname ?? 'ubuntu');
  const ns = A11Y_NAMESPACES[osname];
  if (!ns) throw new MetricOptionsError(`check_accessibility_tree: osname must be ubuntu, windows or macos, got ${JSON.stringify(osname)}`);
  const root = parseXml(result);
  let total = 1;
  for (const rule of expected as A11yRule[]) {
    let elements;
    if (rule.xpath !== undefined) elements = xpathElements(root, rule.xpath, ns);
    else if (rule.selectors !== undefined) elements = cssSelectElements(root, rule.selectors.join(', '), ns);
    else throw new MetricOptionsError('check_accessibility_tree: each rule needs "xpath" or "selectors"');
    if (elements.length === 0) return 0;
    let score = 1;
    if (rule.text !== undefined) {
      if (!('exact' in rule)) throw new MetricOptionsError('check_accessibility_tree: a rule with "text" needs "exact" (KeyError in OSWorld)');
      score = 0;
      for (const el of elements) {
        const text = elementText(el);
        const s = rule.exact ? (text === rule.text ? 1 : 0) : text === null ? 0 : fuzzRatio(rule.text, text) / 100;
        score = Math.max(score, s);
      }
    }
    total *= score;
  }
  return total;
}

export const htmlMetrics: Record<string, Metric> = {
  compare_htmls: compareHtmls,
  check_html_background_image: checkHtmlBackgroundImage,
  check_accessibility_tree: checkAccessibilityTree,
};

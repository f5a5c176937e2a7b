// Element queries over XML, as OSWorld runs them with lxml: `el.xpath(expr, namespaces=…)` (XPath 1.0) and
// `lxml.cssselect.CSSSelector(sel, namespaces=…)(el)`. Used for accessibility trees and LibreOffice's registry file.
// Supported: XPath location paths with the usual axes, predicates, and/or/not, comparisons, arithmetic, unions and the
// core string/number functions; CSS type/universal selectors, #id, .class, attribute selectors with namespaces
// (`[attr|id=x]`, = ~= |= ^= $= *=), :first-child/:last-child/:only-child/:empty/:nth-child(n)/:not(simple), and
// the four combinators. Anything else is rejected with an error naming the construct.
import { parseDom } from './xml-dom.ts';
import { MalformedInputError } from '../../errors.ts';
import { MetricOptionsError } from '../errors.ts';

type XNode = {
  nodeType: number;
  nodeName: string;
  localName?: string | null;
  namespaceURI?: string | null;
  nodeValue?: string | null;
  data?: string;
  value?: string;
  parentNode: XNode | null;
  ownerElement?: XNode | null;
  childNodes: ArrayLike<XNode>;
  attributes?: ArrayLike<XNode>;
};

const ELEMENT = 1;
const ATTRIBUTE = 2;
const TEXT = 3;
const CDATA = 4;
const PI = 7;
const COMMENT = 8;
const DOCUMENT = 9;

export type Namespaces = Record<string, string>;

/** Parses an XML string and returns its root element (lxml.etree.fromstring). Malformed XML throws. */
export function parseXml(xml: string): XNode {
  const root = parseDom(xml) as unknown as XNode | null;
  if (!root) throw new MalformedInputError('XML has no root element');
  return root;
}

/** lxml's `element.text`: the text before the element's first child node, or null. */
export function elementText(el: XNode): string | null {
  let text = '';
  let any = false;
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType !== TEXT && child.nodeType !== CDATA) break;
    text += child.data ?? '';
    any = true;
  }
  return any && text !== '' ? text : null;
}

function children(node: XNode): XNode[] {
  return Array.from(node.childNodes ?? []);
}

function attributesOf(node: XNode): XNode[] {
  if (node.nodeType !== ELEMENT) return [];
  return Array.from(node.attributes ?? []).filter((a) => a.nodeName !== 'xmlns' && !a.nodeName.startsWith('xmlns:'));
}

function parentOf(node: XNode): XNode | null {
  return node.nodeType === ATTRIBUTE ? (node.ownerElement ?? null) : node.parentNode;
}

function descendants(node: XNode, out: XNode[] = []): XNode[] {
  for (const child of children(node)) {
    out.push(child);
    descendants(child, out);
  }
  return out;
}

function stringValue(node: XNode): string {
  if (node.nodeType === ELEMENT || node.nodeType === DOCUMENT) {
    return descendants(node)
      .filter((n) => n.nodeType === TEXT || n.nodeType === CDATA)
      .map((n) => n.data ?? '')
      .join('');
  }
  if (node.nodeType === ATTRIBUTE) return node.value ?? '';
  return node.data ?? node.nodeValue ?? '';
}

function documentOrder(nodes: XNode[]): XNode[] {
  if (nodes.length < 2) return nodes;
  const unique = [...new Set(nodes)];
  let root = unique[0];
  while (parentOf(root)) root = parentOf(root)!;
  const order = new Map<XNode, number>();
  let i = 0;
  const walk = (n: XNode) => {
    order.set(n, i++);
    for (const a of attributesOf(n)) order.set(a, i++);
    for (const c of children(n)) walk(c);
  };
  walk(root);
  return unique.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

// ---------------------------------------------------------------- XPath 1.0

type Value = XNode[] | string | number | boolean;
type Expr = (ctx: Context) => Value;
interface Context {
  node: XNode;
  position: number;
  size: number;
}

const AXES = new Set(['ancestor', 'ancestor-or-self', 'attribute', 'child', 'descendant', 'descendant-or-self', 'following', 'following-sibling', 'parent', 'preceding', 'preceding-sibling', 'self']);

function tokenizeXPath(expr: string): string[] {
  const re = /\s*(\/\/|::|\.\.|!=|<=|>=|[/()[\]@,|=<>+*.-]|"[^"]*"|'[^']*'|\d+(?:\.\d*)?|\.\d+|\$?[A-Za-z_][\w.-]*(?::(?:[A-Za-z_][\w.-]*|\*))?|\*)\s*/y;
  const tokens: string[] = [];
  let pos = 0;
  while (pos < expr.length) {
    re.lastIndex = pos;
    const m = re.exec(expr);
    if (!m) throw new MetricOptionsError(`XPath: unexpected character at ${pos} in ${JSON.stringify(expr)}`);
    tokens.push(m[1]);
    pos = re.lastIndex;
    if (!m[1] && pos === expr.length) tokens.pop();
  }
  return tokens.filter((t) => t !== undefined && t !== '');
}

function toBoolean(v: Value): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  return v;
}

function toStringValue(v: Value): string {
  if (Array.isArray(v)) return v.length ? stringValue(documentOrder(v)[0]) : '';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : Number.isNaN(v) ? 'NaN' : String(v);
  return String(v);
}

function toNumber(v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = toStringValue(v).trim();
  return /^-?(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : Number.NaN;
}

function compareValues(op: string, a: Value, b: Value): boolean {
  const test = (x: Value, y: Value): boolean => {
    if (op === '=' || op === '!=') {
      let eq: boolean;
      if (typeof x === 'boolean' || typeof y === 'boolean') eq = toBoolean(x) === toBoolean(y);
      else if (typeof x === 'number' || typeof y === 'number') eq = toNumber(x) === toNumber(y);
      else eq = toStringValue(x) === toStringValue(y);
      return op === '=' ? eq : !eq;
    }
    const l = toNumber(x);
    const r = toNumber(y);
    return op === '<' ? l < r : op === '<=' ? l <= r : op === '>' ? l > r : l >= r;
  };
  const as = Array.isArray(a) ? a.map((n) => stringValue(n)) : null;
  const bs = Array.isArray(b) ? b.map((n) => stringValue(n)) : null;
  if (as && bs) return as.some((x) => bs.some((y) => test(x, y)));
  if (as) return typeof b === 'boolean' ? test(toBoolean(a), b) : as.some((x) => test(x, b));
  if (bs) return typeof a === 'boolean' ? test(a, toBoolean(b)) : bs.some((y) => test(a, y));
  return test(a, b);
}

class XPathParser {
  private i = 0;
  private tokens: string[];
  private ns: Namespaces;
  private source: string;
  constructor(source: string, ns: Namespaces) {
    this.source = source;
    this.tokens = tokenizeXPath(source);
    this.ns = ns;
  }
  private peek(offset = 0): string | undefined {
    return this.tokens[this.i + offset];
  }
  private next(): string {
    const t = this.tokens[this.i++];
    if (t === undefined) throw new MetricOptionsError(`XPath: unexpected end of ${JSON.stringify(this.source)}`);
    return t;
  }
  private expect(t: string): void {
    const got = this.next();
    if (got !== t) throw new MetricOptionsError(`XPath: expected "${t}" but found "${got}" in ${JSON.stringify(this.source)}`);
  }
  parse(): Expr {
    const e = this.orExpr();
    if (this.i < this.tokens.length) throw new MetricOptionsError(`XPath: unexpected "${this.peek()}" in ${JSON.stringify(this.source)}`);
    return e;
  }
  private binary(sub: () => Expr, ops: string[], apply: (op: string, a: Value, b: Value) => Value): Expr {
    let left = sub();
    while (ops.includes(this.peek() ?? '')) {
      const op = this.next();
      const l = left;
      const r = sub();
      left = (ctx) => apply(op, l(ctx), r(ctx));
    }
    return left;
  }
  private orExpr(): Expr {
    let left = this.andExpr();
    while (this.peek() === 'or') {
      this.next();
      const l = left;
      const r = this.andExpr();
      left = (ctx) => toBoolean(l(ctx)) || toBoolean(r(ctx));
    }
    return left;
  }
  private andExpr(): Expr {
    let left = this.equality();
    while (this.peek() === 'and') {
      this.next();
      const l = left;
      const r = this.equality();
      left = (ctx) => toBoolean(l(ctx)) && toBoolean(r(ctx));
    }
    return left;
  }
  private equality(): Expr {
    return this.binary(() => this.relational(), ['=', '!='], compareValues);
  }
  private relational(): Expr {
    return this.binary(() => this.additive(), ['<', '<=', '>', '>='], compareValues);
  }
  private additive(): Expr {
    return this.binary(() => this.multiplicative(), ['+', '-'], (op, a, b) => (op === '+' ? toNumber(a) + toNumber(b) : toNumber(a) - toNumber(b)));
  }
  private multiplicative(): Expr {
    let left = this.unary();
    for (;;) {
      const t = this.peek();
      if (t !== '*' && t !== 'div' && t !== 'mod') break;
      this.next();
      const l = left;
      const r = this.unary();
      left = (ctx) => {
        const a = toNumber(l(ctx));
        const b = toNumber(r(ctx));
        return t === '*' ? a * b : t === 'div' ? a / b : a % b;
      };
    }
    return left;
  }
  private unary(): Expr {
    if (this.peek() === '-') {
      this.next();
      const e = this.unary();
      return (ctx) => -toNumber(e(ctx));
    }
    return this.union();
  }
  private union(): Expr {
    let left = this.pathExpr();
    while (this.peek() === '|') {
      this.next();
      const l = left;
      const r = this.pathExpr();
      left = (ctx) => {
        const a = l(ctx);
        const b = r(ctx);
        if (!Array.isArray(a) || !Array.isArray(b)) throw new MetricOptionsError('XPath: | needs node-sets');
        return documentOrder([...a, ...b]);
      };
    }
    return left;
  }
  private isPrimaryStart(): boolean {
    const t = this.peek();
    if (t === undefined) return false;
    if (t === '(' || t[0] === '"' || t[0] === "'" || /^\d|^\.\d/.test(t) || t[0] === '$') return true;
    return /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?$/.test(t) && this.peek(1) === '(' && !['node', 'text', 'comment', 'processing-instruction'].includes(t);
  }
  private pathExpr(): Expr {
    if (this.isPrimaryStart()) {
      let e = this.primary();
      while (this.peek() === '[') e = this.filter(e, this.predicate());
      if (this.peek() === '/' || this.peek() === '//') {
        const base = e;
        const rest = this.relativePath();
        return (ctx) => {
          const nodes = base(ctx);
          if (!Array.isArray(nodes)) throw new MetricOptionsError('XPath: a path step needs a node-set');
          return rest(nodes);
        };
      }
      return e;
    }
    return this.locationPath();
  }
  private filter(e: Expr, pred: Expr): Expr {
    return (ctx) => {
      const nodes = e(ctx);
      if (!Array.isArray(nodes)) throw new MetricOptionsError('XPath: a predicate needs a node-set');
      return applyPredicate(documentOrder(nodes), pred);
    };
  }
  private primary(): Expr {
    const t = this.next();
    if (t === '(') {
      const e = this.orExpr();
      this.expect(')');
      return e;
    }
    if (t[0] === '"' || t[0] === "'") {
      const s = t.slice(1, -1);
      return () => s;
    }
    if (/^\d|^\.\d/.test(t)) {
      const n = Number(t);
      return () => n;
    }
    if (t[0] === '$') throw new MetricOptionsError(`XPath: variables (${t}) are not supported`);
    this.expect('(');
    const args: Expr[] = [];
    if (this.peek() !== ')') {
      args.push(this.orExpr());
      while (this.peek() === ',') {
        this.next();
        args.push(this.orExpr());
      }
    }
    this.expect(')');
    return functionCall(t, args);
  }
  // A location path returns a function of the context node.
  private locationPath(): Expr {
    const t = this.peek();
    if (t === '/' || t === '//') {
      const absolute = this.peek() === '/' && (this.peek(1) === undefined || [')', ']', '|', ',', 'and', 'or', '='].includes(this.peek(1)!));
      if (absolute) {
        this.next();
        return (ctx) => [rootOf(ctx.node)];
      }
      const rest = this.relativePath();
      return (ctx) => rest([rootOf(ctx.node)]);
    }
    const steps = this.relativePath(true);
    return (ctx) => steps([ctx.node]);
  }
  private relativePath(first = false): (nodes: XNode[]) => XNode[] {
    const steps: ((nodes: XNode[]) => XNode[])[] = [];
    if (first) steps.push(this.step());
    while (this.peek() === '/' || this.peek() === '//') {
      const sep = this.next();
      if (sep === '//') steps.push((nodes) => documentOrder(nodes.flatMap((n) => [n, ...descendants(n)])));
      steps.push(this.step());
    }
    return (nodes) => steps.reduce((acc, s) => s(acc), nodes);
  }
  private step(): (nodes: XNode[]) => XNode[] {
    const t = this.peek();
    if (t === '.') {
      this.next();
      return (nodes) => nodes;
    }
    if (t === '..') {
      this.next();
      return (nodes) => documentOrder(nodes.map(parentOf).filter((n): n is XNode => n !== null));
    }
    let axis = 'child';
    if (t === '@') {
      this.next();
      axis = 'attribute';
    } else if (t && AXES.has(t) && this.peek(1) === '::') {
      axis = this.next();
      this.next();
    }
    const test = this.nodeTest(axis);
    const preds: Expr[] = [];
    while (this.peek() === '[') preds.push(this.predicate());
    return (nodes) => {
      const out: XNode[] = [];
      for (const n of nodes) {
        let selected = axisNodes(axis, n).filter(test);
        for (const p of preds) selected = applyPredicate(selected, p, axis.startsWith('ancestor') || axis.startsWith('preceding'));
        out.push(...selected);
      }
      return documentOrder(out);
    };
  }
  private nodeTest(axis: string): (n: XNode) => boolean {
    const t = this.next();
    const principal = axis === 'attribute' ? ATTRIBUTE : ELEMENT;
    if (['node', 'text', 'comment', 'processing-instruction'].includes(t) && this.peek() === '(') {
      this.next();
      if (this.peek() !== ')') this.next();
      this.expect(')');
      if (t === 'node') return () => true;
      if (t === 'text') return (n) => n.nodeType === TEXT || n.nodeType === CDATA;
      if (t === 'comment') return (n) => n.nodeType === COMMENT;
      return (n) => n.nodeType === PI;
    }
    if (t === '*') return (n) => n.nodeType === principal;
    const [prefix, local] = t.includes(':') ? t.split(':') : [undefined, t];
    let uri: string | null = null;
    if (prefix !== undefined) {
      if (!(prefix in this.ns)) throw new MetricOptionsError(`XPath: undefined namespace prefix "${prefix}"`);
      uri = this.ns[prefix];
    }
    return (n) => n.nodeType === principal && (local === '*' || (n.localName ?? n.nodeName) === local) && (n.namespaceURI ?? null) === uri;
  }
  private predicate(): Expr {
    this.expect('[');
    const e = this.orExpr();
    this.expect(']');
    return e;
  }
}

function rootOf(node: XNode): XNode {
  let n = node;
  while (parentOf(n)) n = parentOf(n)!;
  return n;
}

function axisNodes(axis: string, n: XNode): XNode[] {
  const siblings = () => (n.parentNode ? children(n.parentNode) : []);
  switch (axis) {
    case 'child':
      return children(n);
    case 'attribute':
      return attributesOf(n);
    case 'self':
      return [n];
    case 'parent':
      return parentOf(n) ? [parentOf(n)!] : [];
    case 'descendant':
      return descendants(n);
    case 'descendant-or-self':
      return [n, ...descendants(n)];
    case 'ancestor':
    case 'ancestor-or-self': {
      const out: XNode[] = axis === 'ancestor-or-self' ? [n] : [];
      for (let p = parentOf(n); p; p = parentOf(p)) out.push(p);
      return out;
    }
    case 'following-sibling': {
      const s = siblings();
      return s.slice(s.indexOf(n) + 1);
    }
    case 'preceding-sibling': {
      const s = siblings();
      return s.slice(0, s.indexOf(n)).reverse();
    }
    case 'following': {
      const all = descendants(rootOf(n));
      const mine = new Set(descendants(n));
      return all.slice(all.indexOf(n) + 1).filter((x) => !mine.has(x));
    }
    case 'preceding': {
      const all = descendants(rootOf(n));
      const ancestors = new Set(axisNodes('ancestor', n));
      return all.slice(0, all.indexOf(n)).filter((x) => !ancestors.has(x)).reverse();
    }
  }
  throw new MetricOptionsError(`XPath: axis ${axis} is not supported`);
}

function applyPredicate(nodes: XNode[], pred: Expr, reverse = false): XNode[] {
  const size = nodes.length;
  return nodes.filter((node, i) => {
    const position = reverse ? i + 1 : i + 1;
    const v = pred({ node, position, size });
    return typeof v === 'number' ? v === position : toBoolean(v);
  });
}

function functionCall(name: string, args: Expr[]): Expr {
  const str = (ctx: Context, i: number) => (args[i] ? toStringValue(args[i](ctx)) : stringValue(ctx.node));
  switch (name) {
    case 'contains':
      return (ctx) => str(ctx, 0).includes(str(ctx, 1));
    case 'starts-with':
      return (ctx) => str(ctx, 0).startsWith(str(ctx, 1));
    case 'ends-with':
      return (ctx) => str(ctx, 0).endsWith(str(ctx, 1));
    case 'not':
      return (ctx) => !toBoolean(args[0](ctx));
    case 'true':
      return () => true;
    case 'false':
      return () => false;
    case 'boolean':
      return (ctx) => toBoolean(args[0](ctx));
    case 'string':
      return (ctx) => str(ctx, 0);
    case 'number':
      return (ctx) => (args[0] ? toNumber(args[0](ctx)) : toNumber(stringValue(ctx.node)));
    case 'normalize-space':
      return (ctx) => str(ctx, 0).replace(/[ \t\r\n]+/g, ' ').trim();
    case 'string-length':
      return (ctx) => Array.from(str(ctx, 0)).length;
    case 'concat':
      return (ctx) => args.map((a) => toStringValue(a(ctx))).join('');
    case 'substring':
      return (ctx) => {
        const chars = Array.from(str(ctx, 0));
        const start = Math.round(toNumber(args[1](ctx)));
        const end = args[2] ? start + Math.round(toNumber(args[2](ctx))) : Infinity;
        return chars.filter((_, i) => i + 1 >= start && i + 1 < end).join('');
      };
    case 'substring-before':
      return (ctx) => {
        const s = str(ctx, 0);
        const i = s.indexOf(str(ctx, 1));
        return i < 0 ? '' : s.slice(0, i);
      };
    case 'substring-after':
      return (ctx) => {
        const s = str(ctx, 0);
        const sep = str(ctx, 1);
        const i = s.indexOf(sep);
        return i < 0 ? '' : s.slice(i + sep.length);
      };
    case 'translate':
      return (ctx) => {
        const from = Array.from(str(ctx, 1));
        const to = Array.from(str(ctx, 2));
        return Array.from(str(ctx, 0))
          .map((c) => {
            const i = from.indexOf(c);
            return i < 0 ? c : (to[i] ?? '');
          })
          .join('');
      };
    case 'count':
      return (ctx) => {
        const v = args[0](ctx);
        if (!Array.isArray(v)) throw new MetricOptionsError('XPath: count() needs a node-set');
        return v.length;
      };
    case 'position':
      return (ctx) => ctx.position;
    case 'last':
      return (ctx) => ctx.size;
    case 'name':
    case 'local-name':
      return (ctx) => {
        const v = args[0] ? args[0](ctx) : [ctx.node];
        const n = Array.isArray(v) ? documentOrder(v)[0] : undefined;
        return n ? (name === 'name' ? n.nodeName : (n.localName ?? n.nodeName)) : '';
      };
    case 'round':
      return (ctx) => Math.round(toNumber(args[0](ctx)));
    case 'floor':
      return (ctx) => Math.floor(toNumber(args[0](ctx)));
    case 'ceiling':
      return (ctx) => Math.ceil(toNumber(args[0](ctx)));
    case 'sum':
      return (ctx) => {
        const v = args[0](ctx);
        return Array.isArray(v) ? v.reduce((t, n) => t + toNumber(stringValue(n)), 0) : Number.NaN;
      };
  }
  throw new MetricOptionsError(`XPath: function ${name}() is not supported`);
}

/** `element.xpath(expr, namespaces=ns)`, keeping only the elements it selects. */
export function xpathElements(root: XNode, expr: string, ns: Namespaces): XNode[] {
  const value = new XPathParser(expr, ns).parse()({ node: root, position: 1, size: 1 });
  if (!Array.isArray(value)) throw new MetricOptionsError(`XPath ${JSON.stringify(expr)} does not select nodes`);
  return value;
}

// ---------------------------------------------------------------- CSS selectors (cssselect semantics)

type Simple = (el: XNode) => boolean;
interface Compound {
  tests: Simple[];
  combinator: ' ' | '>' | '+' | '~' | null; // how this compound relates to the previous one
}

/** `CSSSelector(selector, namespaces=ns)(root)`: matching elements of root's subtree, root included, in document order. */
export function cssSelectElements(root: XNode, selector: string, ns: Namespaces): XNode[] {
  const groups = parseSelectorGroup(selector, ns);
  const candidates = [root, ...descendants(root)].filter((n) => n.nodeType === ELEMENT);
  return candidates.filter((el) => groups.some((chain) => matchesChain(el, chain, chain.length - 1)));
}

function matchesChain(el: XNode, chain: Compound[], index: number): boolean {
  const compound = chain[index];
  if (!compound.tests.every((t) => t(el))) return false;
  if (index === 0) return true;
  const previous = (n: XNode) => elementSiblings(n).filter((_s, i, all) => i < all.indexOf(n));
  switch (compound.combinator) {
    case '>': {
      const p = el.parentNode;
      return p !== null && p.nodeType === ELEMENT && matchesChain(p, chain, index - 1);
    }
    case ' ': {
      for (let p = el.parentNode; p && p.nodeType === ELEMENT; p = p.parentNode) if (matchesChain(p, chain, index - 1)) return true;
      return false;
    }
    case '+': {
      const before = previous(el);
      return before.length > 0 && matchesChain(before[before.length - 1], chain, index - 1);
    }
    case '~':
      return previous(el).some((s) => matchesChain(s, chain, index - 1));
  }
  return false;
}

function elementSiblings(n: XNode): XNode[] {
  return n.parentNode ? children(n.parentNode).filter((c) => c.nodeType === ELEMENT) : [n];
}

function attribute(el: XNode, prefix: string | undefined, local: string, ns: Namespaces): string | null {
  let uri: string | null = null;
  if (prefix !== undefined && prefix !== '*') {
    if (!(prefix in ns)) throw new MetricOptionsError(`CSS selector: undefined namespace prefix "${prefix}"`);
    uri = ns[prefix];
  }
  for (const a of attributesOf(el)) {
    if ((a.localName ?? a.nodeName) === local && (prefix === '*' || (a.namespaceURI ?? null) === uri)) return a.value ?? '';
  }
  return null;
}

function parseSelectorGroup(selector: string, ns: Namespaces): Compound[][] {
  let i = 0;
  const s = selector;
  const fail = (what: string): never => {
    throw new MetricOptionsError(`CSS selector: ${what} at ${i} in ${JSON.stringify(selector)}`);
  };
  const ident = () => {
    const m = /^-?(?:[A-Za-z_\u00a0-\uffff]|\\.)(?:[\w\u00a0-\uffff-]|\\.)*/.exec(s.slice(i));
    if (!m) fail('expected an identifier');
    i += m![0].length;
    return m![0].replace(/\\(.)/g, '$1');
  };
  const skipSpace = () => {
    const start = i;
    while (i < s.length && /\s/.test(s[i])) i++;
    return i > start;
  };
  const stringOrIdent = () => {
    const q = s[i];
    if (q === '"' || q === "'") {
      let out = '';
      i++;
      while (i < s.length && s[i] !== q) {
        if (s[i] === '\\') i++;
        out += s[i++];
      }
      if (s[i] !== q) fail('unterminated string');
      i++;
      return out;
    }
    return ident();
  };
  /** `*` or an identifier, consumed. */
  const nameOrStar = (): string => {
    if (s[i] !== '*') return ident();
    i++;
    return '*';
  };
  const qualifiedName = (): [string | undefined, string] => {
    const first = s[i] === '|' ? '' : nameOrStar();
    if (s[i] === '|' && s[i + 1] !== '=') {
      i++;
      return [first, nameOrStar()];
    }
    return [undefined, first];
  };
  const compound = (): Simple[] => {
    const tests: Simple[] = [];
    if (s[i] === '*' || /[A-Za-z_\\|-]/.test(s[i] ?? '')) {
      const [prefix, local] = qualifiedName();
      let uri: string | null = null;
      if (prefix !== undefined && prefix !== '*' && prefix !== '') {
        if (!(prefix in ns)) fail(`undefined namespace prefix "${prefix}"`);
        uri = ns[prefix];
      }
      tests.push((el) => (local === '*' || (el.localName ?? el.nodeName) === local) && (prefix === undefined || prefix === '*' || (el.namespaceURI ?? null) === uri));
    }
    for (;;) {
      const c = s[i];
      if (c === '#') {
        i++;
        const id = ident();
        tests.push((el) => attribute(el, undefined, 'id', ns) === id);
      } else if (c === '.') {
        i++;
        const cls = ident();
        tests.push((el) => (attribute(el, undefined, 'class', ns) ?? '').split(/\s+/).includes(cls));
      } else if (c === '[') {
        i++;
        skipSpace();
        const [prefix, local] = qualifiedName();
        skipSpace();
        const op = /^([~|^$*]?=)/.exec(s.slice(i))?.[1];
        if (!op) {
          if (s[i] !== ']') fail('expected ] or an attribute operator');
          i++;
          tests.push((el) => attribute(el, prefix, local, ns) !== null);
          continue;
        }
        i += op.length;
        skipSpace();
        const value = stringOrIdent();
        skipSpace();
        if (s[i] !== ']') fail('expected ]');
        i++;
        tests.push((el) => {
          const v = attribute(el, prefix, local, ns);
          if (v === null) return false;
          switch (op) {
            case '=':
              return v === value;
            case '~=':
              return value !== '' && !/\s/.test(value) && ` ${v.replace(/[ \t\r\n]+/g, ' ').trim()} `.includes(` ${value} `);
            case '|=':
              return v === value || v.startsWith(`${value}-`);
            case '^=':
              return value !== '' && v.startsWith(value);
            case '$=':
              return value !== '' && v.endsWith(value);
            default:
              return value !== '' && v.includes(value);
          }
        });
      } else if (c === ':') {
        i++;
        const name = ident().toLowerCase();
        if (name === 'not') {
          if (s[i] !== '(') fail('expected ( after :not');
          i++;
          skipSpace();
          const inner = compound();
          skipSpace();
          if (s[i] !== ')') fail('expected ) closing :not(');
          i++;
          tests.push((el) => !inner.every((t) => t(el)));
        } else if (name === 'nth-child' || name === 'nth-last-child') {
          if (s[i] !== '(') fail(`expected ( after :${name}`);
          const end = s.indexOf(')', i);
          const arg = s.slice(i + 1, end).trim();
          i = end + 1;
          const n = Number(arg);
          if (!Number.isInteger(n)) fail(`only :${name}(<integer>) is supported`);
          tests.push((el) => {
            const sibs = elementSiblings(el);
            const pos = sibs.indexOf(el);
            return (name === 'nth-child' ? pos + 1 : sibs.length - pos) === n;
          });
        } else if (name === 'first-child') tests.push((el) => elementSiblings(el)[0] === el);
        else if (name === 'last-child') tests.push((el) => elementSiblings(el).at(-1) === el);
        else if (name === 'only-child') tests.push((el) => elementSiblings(el).length === 1);
        else if (name === 'empty') tests.push((el) => children(el).every((c) => c.nodeType === COMMENT || c.nodeType === PI));
        else fail(`unsupported pseudo-class :${name}`);
      } else break;
    }
    if (tests.length === 0) fail('expected a selector');
    return tests;
  };
  const groups: Compound[][] = [];
  let chain: Compound[] = [];
  skipSpace();
  let combinator: Compound['combinator'] = null;
  while (i < s.length) {
    chain.push({ tests: compound(), combinator });
    const spaced = skipSpace();
    const c = s[i];
    if (c === undefined) break;
    if (c === ',') {
      i++;
      skipSpace();
      groups.push(chain);
      chain = [];
      combinator = null;
    } else if (c === '>' || c === '+' || c === '~') {
      i++;
      skipSpace();
      combinator = c;
    } else if (spaced) combinator = ' ';
    else fail(`unexpected "${c}"`);
  }
  if (chain.length === 0) fail('empty selector');
  groups.push(chain);
  return groups;
}

// A small tolerant HTML parser shaped after libxml2's HTML parser (what both BeautifulSoup(…, 'lxml') and lxml.html
// use in OSWorld): lower-cased names, void elements, raw-text script/style, implied html/head/body, the common
// auto-closing rules (p, li, dt/dd, tr/td/th, option). Plus libxml2's pretty printer (`lxml.html.tostring(…,
// pretty_print=True)`). It covers the documents the metrics meet (LibreOffice and e-book HTML); it is not a full
// HTML5 tree builder.

export interface HtmlElement {
  kind: 'element';
  name: string;
  attrs: [string, string][];
  children: HtmlNode[];
  parent?: HtmlElement;
}
interface HtmlText {
  kind: 'text' | 'comment' | 'doctype' | 'pi';
  value: string;
  parent?: HtmlElement;
}
export type HtmlNode = HtmlElement | HtmlText;

const VOID = new Set(['area', 'base', 'basefont', 'br', 'col', 'embed', 'frame', 'hr', 'img', 'input', 'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW = new Set(['script', 'style']);
const HEAD_ONLY = new Set(['base', 'link', 'meta', 'script', 'style', 'title']);
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'center', 'dd', 'dir', 'div', 'dl', 'dt', 'fieldset', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul']);
// Which open element a start tag closes implicitly (libxml2's htmlStartClose, reduced to what real files need).
const CELLS = new Set(['td', 'th']);
const ROWS = new Set(['tr', 'td', 'th']);
const SECTIONS = new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']);
const CLOSES: Record<string, Set<string>> = {
  li: new Set(['li']),
  dt: new Set(['dt', 'dd']),
  dd: new Set(['dt', 'dd']),
  option: new Set(['option']),
  tr: ROWS,
  td: CELLS,
  th: CELLS,
  thead: SECTIONS,
  tbody: SECTIONS,
  tfoot: SECTIONS,
};

const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™', hellip: '…',
  mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•',
  middot: '·', times: '×', divide: '÷', deg: '°', euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶',
  shy: '\u00ad', ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwnj: '\u200c', zwj: '\u200d', iexcl: '¡',
  iquest: '¿', frac12: '½', frac14: '¼', frac34: '¾', plusmn: '±', micro: 'µ', eacute: 'é', egrave: 'è', ecirc: 'ê',
  aacute: 'á', agrave: 'à', acirc: 'â', auml: 'ä', ouml: 'ö', uuml: 'ü', szlig: 'ß', ccedil: 'ç', ntilde: 'ñ',
  oacute: 'ó', uacute: 'ú', iacute: 'í', Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', Eacute: 'É',
};

function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?/g, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[ref] ?? whole;
  });
}

/** Parses an HTML document into a root `#document` element whose children are doctype/comments and `<html>`. */
export function parseHtml(source: string): HtmlElement {
  const doc: HtmlElement = { kind: 'element', name: '#document', attrs: [], children: [] };
  const stack: HtmlElement[] = [doc];
  const top = () => stack[stack.length - 1];
  const append = (node: HtmlNode) => {
    node.parent = top();
    top().children.push(node);
  };
  const find = (name: string) => stack.find((e) => e.name === name);
  const open = (name: string, attrs: [string, string][] = []) => {
    const el: HtmlElement = { kind: 'element', name, attrs, children: [] };
    append(el);
    if (!VOID.has(name)) stack.push(el);
    return el;
  };
  // libxml2 implies <html>, then <head> for head-only tags before the body, else <body>.
  const imply = (name: string) => {
    if (name === 'html') return;
    if (!find('html')) open('html');
    if (name === 'head' || name === 'body') return;
    if (find('body') || find('head')) return;
    const html = find('html')!;
    const hasBody = html.children.some((c) => c.kind === 'element' && c.name === 'body');
    if (HEAD_ONLY.has(name) && !hasBody) {
      if (!html.children.some((c) => c.kind === 'element' && c.name === 'head')) open('head');
    } else if (!hasBody) {
      while (top() !== html) stack.pop();
      open('body');
    }
  };
  const close = (name: string) => {
    const at = stack.map((e) => e.name).lastIndexOf(name);
    if (at > 0) stack.length = at;
  };
  const token = /<!--([\s\S]*?)(?:-->|$)|<!([^>]*)>|<\?([\s\S]*?)>|<\/([A-Za-z][^\s/>]*)[^>]*>|<([A-Za-z][^\s/>]*)((?:\s+[^\s/>"'=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?|\s*\/(?!>))*)\s*(\/?)>/g;
  let last = 0;
  const text = (raw: string) => {
    if (!raw) return;
    const value = decodeEntities(raw);
    // Whitespace outside the body (between head elements, before <html>) is dropped, as libxml2 does.
    if (!/\S/.test(value) && !find('body')) return;
    if (/\S/.test(value)) imply('#text');
    const prev = top().children[top().children.length - 1];
    if (prev && prev.kind === 'text') prev.value += value;
    else append({ kind: 'text', value });
  };
  for (let m = token.exec(source); m; m = token.exec(source)) {
    text(source.slice(last, m.index));
    last = token.lastIndex;
    if (m[1] !== undefined) append({ kind: 'comment', value: m[1] });
    else if (m[2] !== undefined) {
      if (/^doctype/i.test(m[2])) append({ kind: 'doctype', value: m[2].slice(7).trim() });
    } else if (m[3] !== undefined) append({ kind: 'pi', value: m[3] });
    else if (m[4] !== undefined) {
      const name = m[4].toLowerCase();
      if (name === 'html' || name === 'body' || name === 'head') {
        if (name === 'head') close('head');
        continue; // libxml2 keeps html/body open until the end
      }
      close(name);
    } else {
      const name = m[5].toLowerCase();
      const attrs = parseAttributes(m[6]);
      if (name === 'html' && find('html')) {
        mergeAttrs(find('html')!, attrs);
        continue;
      }
      if (name === 'body' && find('body')) continue;
      imply(name);
      if (name === 'body') close('head');
      const closes = CLOSES[name];
      while (stack.length > 1) {
        const cur = top().name;
        if ((BLOCK.has(name) && cur === 'p') || (closes?.has(cur))) stack.pop();
        else break;
      }
      const el = open(name, attrs);
      if (RAW.has(name)) {
        const end = source.toLowerCase().indexOf(`</${name}`, last);
        const stop = end < 0 ? source.length : end;
        if (stop > last) el.children.push({ kind: 'text', value: source.slice(last, stop), parent: el });
        const after = end < 0 ? source.length : source.indexOf('>', end) + 1 || source.length;
        last = after;
        token.lastIndex = after;
        stack.pop();
      }
    }
  }
  text(source.slice(last));
  if (!find('html') && !doc.children.some((c) => c.kind === 'element')) open('html');
  return doc;
}

function mergeAttrs(el: HtmlElement, attrs: [string, string][]): void {
  for (const [k, v] of attrs) if (!el.attrs.some(([n]) => n === k)) el.attrs.push([k, v]);
}

function parseAttributes(raw: string): [string, string][] {
  const attrs: [string, string][] = [];
  const re = /([^\s/>"'=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g;
  for (let m = re.exec(raw); m; m = re.exec(raw)) {
    const name = m[1].toLowerCase();
    if (attrs.some(([n]) => n === name)) continue;
    const value = m[2] ?? m[3] ?? m[4];
    attrs.push([name, value === undefined ? '' : decodeEntities(value)]);
  }
  return attrs;
}

/** The `<html>` element of a parsed document (lxml.html.fromstring returns it for whole documents). */
export function htmlRoot(doc: HtmlElement): HtmlElement {
  return (doc.children.find((c) => c.kind === 'element') as HtmlElement | undefined) ?? doc;
}

// libxml2's html40ElementTable: elements flagged inline get no line breaks around them when pretty printing.
const INLINE = new Set(['a', 'abbr', 'acronym', 'applet', 'b', 'basefont', 'bdo', 'big', 'br', 'button', 'cite', 'code', 'del', 'dfn', 'em', 'embed', 'font', 'i', 'iframe', 'img', 'input', 'ins', 'kbd', 'label', 'map', 'object', 'q', 's', 'samp', 'script', 'select', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'textarea', 'tt', 'u', 'var']);
const KNOWN = new Set([...INLINE, ...VOID, ...BLOCK, 'html', 'head', 'body', 'title', 'style', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption', 'colgroup', 'option', 'optgroup', 'textarea', 'frameset', 'noframes', 'noscript', 'legend', 'dl']);

/**
 * `lxml.html.tostring(el, pretty_print=True, encoding="unicode")`, after libxml2's htmlNodeDumpFormatOutput: a newline
 * after a known block element's start tag and before its end tag when it has several children that are not text,
 * and after a block element followed by a non-text sibling, except inside elements whose name starts with "p".
 */
export function prettyPrintHtml(el: HtmlElement): string {
  let out = '';
  const isText = (n: HtmlNode | undefined) => n !== undefined && n.kind === 'text';
  const newlineAfter = (node: HtmlElement) => {
    const parent = node.parent;
    if (!parent) return;
    const siblings = parent.children;
    const next = siblings[siblings.indexOf(node) + 1];
    if (next && !isText(next) && parent.name !== '#document' && !parent.name.startsWith('p') && KNOWN.has(node.name) && !INLINE.has(node.name)) out += '\n';
  };
  const dump = (node: HtmlNode) => {
    if (node.kind === 'text') {
      const raw = node.parent && RAW.has(node.parent.name);
      out += raw ? node.value : node.value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\u00a0/g, '&nbsp;');
      return;
    }
    if (node.kind === 'comment') {
      out += `<!--${node.value}-->`;
      return;
    }
    if (node.kind !== 'element') return;
    out += `<${node.name}`;
    for (const [k, v] of node.attrs) out += ` ${k}="${v.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
    if (VOID.has(node.name)) {
      out += '>';
      newlineAfter(node);
      return;
    }
    out += '>';
    const block = KNOWN.has(node.name) && !INLINE.has(node.name) && !node.name.startsWith('p');
    const kids = node.children;
    if (block && kids.length > 1 && !isText(kids[0])) out += '\n';
    for (const child of kids) dump(child);
    if (block && kids.length > 1 && !isText(kids[kids.length - 1])) out += '\n';
    out += `</${node.name}>`;
    newlineAfter(node);
  };
  dump(el);
  return `${out}\n`;
}

// Python's urllib.parse where OSWorld's getters and metrics use it: urlparse, urlunparse, parse_qs.

export interface ParsedUrl {
  scheme: string;
  netloc: string;
  path: string;
  params: string;
  query: string;
  fragment: string;
}

const SCHEME_CHARS = /^[A-Za-z][A-Za-z0-9+\-.]*$/;
const USES_PARAMS = new Set(['', 'ftp', 'hdl', 'prospero', 'http', 'imap', 'https', 'shttp', 'rtsp', 'rtsps', 'rtspu', 'sip', 'sips', 'mms', 'sftp', 'tel']);
const USES_NETLOC = new Set(['', 'ftp', 'http', 'gopher', 'nntp', 'telnet', 'imap', 'wais', 'file', 'mms', 'https', 'shttp', 'snews', 'prospero', 'rtsp', 'rtsps', 'rtspu', 'rsync', 'svn', 'svn+ssh', 'sftp', 'nfs', 'git', 'git+ssh', 'ws', 'wss', 'itms-services']);

/** Python's `urllib.parse.urlparse`. */
export function urlparse(input: string): ParsedUrl {
  if (typeof input !== 'string') throw new TypeError(`urlparse needs a string, got ${JSON.stringify(input)}`);
  let url = input.replace(/^[\x00-\x20]+/, '').replace(/[\t\r\n]/g, '');
  let scheme = '';
  let netloc = '';
  let query = '';
  let fragment = '';
  const colon = url.indexOf(':');
  if (colon > 0 && SCHEME_CHARS.test(url.slice(0, colon))) {
    scheme = url.slice(0, colon).toLowerCase();
    url = url.slice(colon + 1);
  }
  if (url.startsWith('//')) {
    const rest = url.slice(2);
    const end = rest.search(/[/?#]/);
    netloc = end < 0 ? rest : rest.slice(0, end);
    url = end < 0 ? '' : rest.slice(end);
  }
  const hash = url.indexOf('#');
  if (hash >= 0) {
    fragment = url.slice(hash + 1);
    url = url.slice(0, hash);
  }
  const mark = url.indexOf('?');
  if (mark >= 0) {
    query = url.slice(mark + 1);
    url = url.slice(0, mark);
  }
  let params = '';
  if (USES_PARAMS.has(scheme) && url.includes(';')) {
    const lastSlash = url.lastIndexOf('/');
    const semi = lastSlash >= 0 ? url.indexOf(';', lastSlash) : url.indexOf(';');
    if (semi >= 0) {
      params = url.slice(semi + 1);
      url = url.slice(0, semi);
    }
  }
  return { scheme, netloc, path: url, params, query, fragment };
}

/** Python's `urllib.parse.urlunparse`. */
export function urlunparse(u: ParsedUrl): string {
  let url = u.params ? `${u.path};${u.params}` : u.path;
  if (u.netloc || (u.scheme && USES_NETLOC.has(u.scheme) && !url.startsWith('//'))) {
    if (url && !url.startsWith('/')) url = `/${url}`;
    url = `//${u.netloc}${url}`;
  }
  if (u.scheme) url = `${u.scheme}:${url}`;
  if (u.query) url += `?${u.query}`;
  if (u.fragment) url += `#${u.fragment}`;
  return url;
}

/** Python's parse_qs: blank values dropped, '+' is a space, repeated keys collect in order. */
export function parseQs(query: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const pair of query.split(/[&;]/)) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    const key = decode(pair.slice(0, eq));
    const value = decode(pair.slice(eq + 1));
    if (!value) continue;
    result.set(key, [...(result.get(key) ?? []), value]);
  }
  return result;
}

// URLs as OSWorld's Chrome metrics see them: Python's urllib.parse.urlparse/urlunparse, and compare_urls, which drops
// the public suffix (tldextract) so that airbnb.com equals airbnb.com.sg.
import { parse as parseDomain } from 'tldts';

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

/**
 * tldextract's split of a host into (subdomain, domain, suffix), ICANN suffixes only. A host whose last label is no
 * known suffix (localhost, chrome://settings) has an empty suffix and that label as its domain; an IP is all domain.
 */
export function extractDomain(netloc: string): { subdomain: string; domain: string; suffix: string } {
  let host = netloc.slice(netloc.lastIndexOf('@') + 1);
  if (host.startsWith('[')) return { subdomain: '', domain: host.slice(1, host.indexOf(']') < 0 ? undefined : host.indexOf(']')), suffix: '' };
  host = host.split(':')[0].replace(/[\u3002\uff0e\uff61]/g, '.');
  const info = parseDomain(host.replace(/^\.+/, ''), { allowPrivateDomains: false });
  if (info.isIp) return { subdomain: '', domain: host, suffix: '' };
  const labels = host.split('.');
  const suffix = info.isIcann && info.publicSuffix ? info.publicSuffix : '';
  const suffixLabels = suffix ? suffix.split('.').length : 0;
  const domainAt = labels.length - suffixLabels - 1;
  return {
    subdomain: domainAt > 0 ? labels.slice(0, domainAt).join('.') : '',
    domain: domainAt >= 0 ? labels[domainAt] : '',
    suffix,
  };
}

/**
 * OSWorld's compare_urls(url1, url2, full=True): adds "http://" to a URL without a scheme, lower-cases scheme and host,
 * drops the public suffix and a lone "www" subdomain and the port, treats the path "/" as empty, and keeps params,
 * query and fragment only when `full`. Two nulls are equal; one null is not.
 */
export function compareUrls(url1: string | null | undefined, url2: string | null | undefined, full = true): boolean {
  if (url1 === null || url1 === undefined || url2 === null || url2 === undefined) return url1 === url2;
  return normalizeUrl(url1, full) === normalizeUrl(url2, full);
}

function normalizeUrl(url: string, full = true): string {
  const parsed = urlparse(/^[a-zA-Z][a-zA-Z0-9+\-.]*:\/\//.test(url) ? url : `http://${url}`);
  const { subdomain, domain } = extractDomain(parsed.netloc.toLowerCase());
  const sub = subdomain === 'www' ? '' : subdomain;
  return urlunparse({
    scheme: parsed.scheme.toLowerCase(),
    netloc: sub ? `${sub}.${domain}` : domain,
    path: parsed.path === '/' ? '' : parsed.path,
    params: full ? parsed.params : '',
    query: full ? parsed.query : '',
    fragment: full ? parsed.fragment : '',
  });
}

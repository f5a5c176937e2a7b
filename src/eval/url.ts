// URLs as OSWorld's Chrome metrics see them: compare_urls, which drops the public suffix (tldextract) so that
// airbnb.com equals airbnb.com.sg. Python's urlparse/urlunparse are src/python/urllib.ts.
import { parse as parseDomain } from 'tldts';
import { urlparse, urlunparse } from '../python/urllib.ts';

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

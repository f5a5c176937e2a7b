// Browser getters (OSWorld getters/chrome.py, the live half): the active tab's URL read from the accessibility tree,
// and pages read through Chrome's DevTools protocol (playwright-core over `env.cdp`, see desktop/chrome-devtools.ts).
import { writeFile } from 'node:fs/promises';
import { DOMParser } from '@xmldom/xmldom';
import type { Element as XmlElement } from '@xmldom/xmldom';
import { connectOverDevTools } from '../../desktop/chrome-devtools.ts';
import type { Browser, Page } from 'playwright-core';
import type { EvalEnv, Getter, Options } from '../registry.ts';
import { EVALUATION_A11Y_TIME_LIMIT_MS, cachePath, stringKey } from './support.ts';
import { parseQs } from '../../python/urllib.ts';
import { GetterError } from '../errors.ts';

const STATE_NS = 'uri:deskat:state.at-spi.gnome.org';

/** playwright's TimeoutError, told by its name: importing playwright-core for its class would load it with every getter. */
const isTimeout = (error: unknown) => (error as Error | undefined)?.name === 'TimeoutError';
// OSWorld looks for "Google Chrome" (x86) or "Chromium" (ARM); our google-chrome is Chromium, so both are tried.
const BROWSER_APP_NAMES = ['Google Chrome', 'Chromium'];

// --- the active tab's URL -------------------------------------------------------------------------------------------

/**
 * The active tab's URL from an accessibility tree: the "Address and search bar" entry under the browser application,
 * preferring a focused one, else the last with text; `goto_prefix` (default "https://") is added unless the text has
 * a scheme (without doubling "www.").
 */
export function activeUrlFromTree(xml: string, gotoPrefix: unknown = 'https://'): string | null {
  const doc = new DOMParser({ onError: () => {} }).parseFromString(xml, 'text/xml');
  for (const appName of BROWSER_APP_NAMES) {
    const bars: XmlElement[] = [];
    for (const app of elements(doc.documentElement as XmlElement | null)) {
      if (app.localName !== 'application' || app.getAttribute('name') !== appName) continue;
      for (const node of elements(app)) {
        if (node !== app && node.localName === 'entry' && node.getAttribute('name') === 'Address and search bar') bars.push(node);
      }
    }
    const withText = bars.filter((bar) => directText(bar));
    if (!withText.length) continue;
    const focused = withText.filter(
      (bar) => bar.getAttribute('focused') === 'true' || bar.getAttributeNS(STATE_NS, 'focused') === 'true',
    );
    const active = focused.length ? focused[focused.length - 1] : withText[withText.length - 1];
    return normalizeBarText(directText(active), typeof gotoPrefix === 'string' ? gotoPrefix : '');
  }
  return null;
}

function* elements(root: XmlElement | null): Generator<XmlElement> {
  if (!root) return;
  yield root;
  for (let child = root.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) yield* elements(child as XmlElement);
  }
}

/** lxml's `element.text`: the text before the first child element. */
function directText(element: XmlElement): string {
  let text = '';
  for (let child = element.firstChild; child && child.nodeType !== 1; child = child.nextSibling) text += child.nodeValue ?? '';
  return text;
}

function normalizeBarText(raw: string, prefix: string): string {
  let text = raw.trim();
  if (/^[a-zA-Z][a-zA-Z0-9+\-.]*:/.test(text)) return text;
  if (prefix.endsWith('www.') && text.toLowerCase().startsWith('www.')) text = text.slice(4);
  return `${prefix}${text}`;
}

/** `active_url_from_accessTree {goto_prefix?}`. */
const getActiveUrlFromAccessTree: Getter = async (env, config) =>
  activeUrlFromTree(await env.desktop.accessibilityTree({ timeLimitMs: EVALUATION_A11Y_TIME_LIMIT_MS }), config.goto_prefix ?? 'https://');

async function activeUrl(env: EvalEnv, config: Options): Promise<string | null> {
  return (await getActiveUrlFromAccessTree(env, config)) as string | null;
}

// --- pure URL parsing ------------------------------------------------------------------------------------------------

/** `active_tab_url_parse {parse_keys, replace?, split_list?}` on a given URL: the first value of each query key. */
export function parseUrlQuery(url: string, config: Options): Record<string, unknown> {
  const keys = config.parse_keys;
  if (!Array.isArray(keys)) throw new GetterError('active_tab_url_parse: config.parse_keys must be a list');
  const query = parseQs(new URL(url).search.slice(1));
  const extracted: Record<string, unknown> = {};
  for (const key of keys.map(String)) extracted[key] = query.get(key)?.[0] ?? '';
  if (config.replace && typeof config.replace === 'object') {
    for (const [from, to] of Object.entries(config.replace as Record<string, string>)) {
      if (!(from in extracted)) throw new GetterError(`active_tab_url_parse: replace names "${from}", which is not a parse key`);
      const value = extracted[from];
      delete extracted[from];
      extracted[to] = value;
    }
  }
  if (config.split_list) for (const key of Object.keys(extracted)) extracted[key] = String(extracted[key]).split(',');
  return extracted;
}

/** `url_dashPart {partIndex, needDeleteId, returnType: string|json, key}` on a given URL (Python indexing). */
export function urlDashPart(url: string, config: Options): unknown {
  const parts = url.split('/');
  const index = Number(config.partIndex);
  if (!Number.isInteger(index) || index >= parts.length || index < -parts.length) {
    throw new GetterError(`url_dashPart: partIndex ${JSON.stringify(config.partIndex)} is out of range for ${url}`);
  }
  let part = parts[index < 0 ? parts.length + index : index];
  if (config.needDeleteId) part = part.split('?')[0];
  if (config.returnType === 'string') return part;
  if (config.returnType === 'json') return { [String(config.key)]: part };
  return null;
}

/** `url_path_parse` (OSWorld's macys_product_url_parse): flags and facet values from a Macy's listing path. */
export function urlPathParse(url: string, config: Options): Record<string, unknown> {
  const path = safeDecode(new URL(url).pathname);
  const result: Record<string, unknown> = { mens_clothing: path.includes('mens-clothing') ? true : null };
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  const facets: Record<string, unknown> = {};
  let shirts = path.includes('shirts');
  let shortSleeve = path.includes('short-sleeve');
  for (let i = 0; i < parts.length - 1; i++) {
    if (!parts[i].includes(',') || !parts[i + 1].includes(',')) continue;
    const keys = parts[i].split(',').map((k) => k.trim());
    const values = parts[i + 1].split(',').map((v) => v.trim());
    for (let j = 0; j < Math.min(keys.length, values.length); j++) {
      const [k, v] = [keys[j], values[j]];
      facets[k] = k === 'Price_discount_range' ? (v ? v.split('|').map((s) => s.trim()) : null) : v || null;
      if (k === 'Product_department' && v && ['shirts', 'shirt'].includes(v.toLowerCase())) shirts = true;
      if (k === 'Sleeve_length' && v && ['short-sleeve', 'short sleeve'].includes(v.toLowerCase())) shortSleeve = true;
    }
    break;
  }
  for (const field of ['Men_regular_size_t', 'Price_discount_range']) if (!(field in facets)) facets[field] = null;
  result.shirts = shirts || null;
  result.short_sleeve = shortSleeve || null;
  for (const key of Array.isArray(config.parse_keys) ? config.parse_keys.map(String) : []) {
    if (!(key in facets)) continue;
    if (key === 'Price_discount_range') {
      const ranges = facets[key] as string[] | null;
      const only50 = ranges?.includes('50_PERCENT_ off & more') &&
        !ranges.includes('30_PERCENT_ off & more') && !ranges.includes('20_PERCENT_ off & more');
      result[key] = only50 ? '50_PERCENT_ off & more' : 'not_50_PERCENT_ off & more';
    } else {
      result[key] = facets[key];
    }
  }
  return result;
}

const urlGetter = (parse: (url: string, config: Options) => unknown): Getter => async (env, config) => {
  const url = await activeUrl(env, config);
  return url === null ? null : parse(url, config);
};

// --- DevTools ----------------------------------------------------------------------------------------------------------

/** Connects over CDP; if Chrome is gone, starts it again as OSWorld does (port 1337 behind the task's socat). */
async function connectBrowser(env: EvalEnv, relaunch = true): Promise<Browser> {
  const cdp = env.cdp;
  if (!cdp) throw new GetterError('no Chrome DevTools endpoint (env.cdp) for this desktop');
  try {
    return await connectOverDevTools(cdp);
  } catch (error) {
    if (!relaunch) throw error;
    await env.desktop.launch(['google-chrome', '--remote-debugging-port=1337']);
    await new Promise((done) => setTimeout(done, 5000));
    return connectOverDevTools(cdp);
  }
}

async function withBrowser<T>(env: EvalEnv, use: (browser: Browser) => Promise<T>, relaunch = true): Promise<T> {
  const browser = await connectBrowser(env, relaunch);
  try {
    return await use(browser);
  } finally {
    await browser.close().catch(() => {});
  }
}

async function newPage(browser: Browser): Promise<Page> {
  const [context] = browser.contexts();
  return context ? context.newPage() : browser.newPage();
}

/** `open_tabs_info`: `[{title, url}]` of every open page; [] when Chrome cannot be reached. */
const getOpenTabsInfo: Getter = async (env) => {
  let browser: Browser;
  try {
    browser = await connectBrowser(env);
  } catch {
    return [];
  }
  try {
    const tabs: { title: string; url: string }[] = [];
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        try {
          await page.waitForLoadState('networkidle', { timeout: 30_000 });
          tabs.push({ title: await page.title(), url: page.url() });
        } catch (error) {
          tabs.push({ title: isTimeout(error) ? 'Load timeout' : 'Error encountered', url: page.url() });
        }
      }
    }
    return tabs;
  } finally {
    await browser.close().catch(() => {});
  }
};

/** `active_tab_info`: the active tab's URL (from the accessibility tree) reopened in a new page: {title, url, content}. */
const getActiveTabInfo: Getter = async (env, config) => {
  const url = await activeUrl(env, config);
  if (url === null) return null;
  let browser: Browser;
  try {
    browser = await connectBrowser(env, false);
  } catch {
    return null;
  }
  try {
    const page = await browser.newPage();
    try {
      await page.goto(url);
    } catch {
      return null;
    }
    await page.waitForLoadState('load');
    return { title: await page.title(), url: page.url(), content: await page.content() };
  } finally {
    await browser.close().catch(() => {});
  }
};

/** `page_info {url}`: {title, url, content} of the URL opened in a new tab. */
const getPageInfo: Getter = (env, config) => {
  const url = stringKey('page_info', config, 'url');
  return withBrowser(env, async (browser) => {
    const page = await newPage(browser);
    await page.goto(url);
    try {
      await page.waitForLoadState('load');
      return { title: await page.title(), url: page.url(), content: await page.content() };
    } catch (error) {
      const title = isTimeout(error) ? 'Load timeout' : 'Error encountered';
      return { title, url: page.url(), content: await page.content() };
    }
  });
};

/** `pdf_from_url {path: url, dest}`: the page printed to PDF into the cache (3 tries, then an empty PDF). */
const getPdfFromUrl: Getter = async (env, config) => {
  const url = stringKey('pdf_from_url', config, 'path');
  const local = await cachePath(env, stringKey('pdf_from_url', config, 'dest'));
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await withBrowser(env, async (browser) => {
        const page = await newPage(browser);
        await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
        await page.pdf({ path: local });
      });
      return local;
    } catch {
      // try again
    }
  }
  await writeFile(local, EMPTY_PDF);
  return local;
};

const EMPTY_PDF = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

/**
 * `info_from_website {url, infos: [{action, selector, attribute?}], backups}`: texts or attributes read from a page
 * (clicking through a selector list first for the click_and_* actions); `backups` when anything fails.
 */
const getInfoFromWebsite: Getter = async (env, config) => {
  try {
    const url = stringKey('info_from_website', config, 'url');
    return await withBrowser(env, async (browser) => {
      const page = await newPage(browser);
      await page.goto(url);
      await page.waitForLoadState('load');
      const infos: unknown[] = [];
      for (const info of (config.infos ?? []) as Options[]) {
        if (page.url() !== url) {
          await page.goto(url);
          await page.waitForLoadState('load');
        }
        const action = info.action ?? 'inner_text';
        const selectors = Array.isArray(info.selector) ? info.selector.map(String) : [String(info.selector)];
        if (action === 'click_and_inner_text' || action === 'click_and_attribute') {
          for (const selector of selectors.slice(0, -1)) {
            await (await page.waitForSelector(selector, { state: 'attached', timeout: 10_000 })).click();
            await page.waitForLoadState('load');
          }
        } else if (action !== 'inner_text' && action !== 'attribute') {
          throw new GetterError(`info_from_website: action ${String(action)} is not supported`);
        }
        const element = await page.waitForSelector(selectors[selectors.length - 1], { state: 'attached', timeout: 10_000 });
        infos.push(String(action).endsWith('attribute') ? await element.getAttribute(String(info.attribute)) : await element.innerText());
      }
      return infos;
    });
  } catch {
    return config.backups ?? null;
  }
};

/**
 * `active_tab_html_parse {goto_prefix?, category: class|label|xpath|input|class&url, …}`: texts from the open tab whose
 * URL is the active one; {} when no tab matches.
 */
const getActiveTabHtmlParse: Getter = async (env, config) => {
  const url = await activeUrl(env, config);
  if (typeof url !== 'string') return null;
  return withBrowser(env, async (browser) => {
    const normalize = (u: string) => safeDecode(u).replace(/\/+$/, '');
    let target: Page | undefined;
    for (const context of browser.contexts()) {
      for (const page of context.pages()) {
        try {
          await page.waitForLoadState('networkidle', { timeout: 60_000 });
          if (!page.isClosed() && normalize(page.url()) === normalize(url)) {
            target = page;
            break;
          }
        } catch {
          // a page that never settles is not the one we look for
        }
      }
      if (target) break;
    }
    return target ? parseTab(target, config) : {};
  });
};

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

async function texts(page: Page, selector: string): Promise<string[]> {
  try {
    return (await page.$$eval(selector, (nodes) => nodes.map((n) => (n.textContent ?? '').trim())));
  } catch {
    return [];
  }
}

async function parseTab(page: Page, config: Options): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const record = <T>(value: unknown) => (value && typeof value === 'object' ? (value as Record<string, T>) : {});
  switch (config.category) {
    case 'class': {
      for (const [cls, byIndex] of Object.entries(record<Record<string, string>>(config.class_multiObject))) {
        const found = await texts(page, `.${cls}`);
        for (const [index, key] of Object.entries(byIndex)) out[key] = found[Number(index)] ?? '';
      }
      for (const [cls, byIndex] of Object.entries(record<Record<string, string>>(config.class_multiObject_child))) {
        const found = await page.$$eval(`.${cls}`, (nodes) => nodes.length
          ? Array.from(nodes[0].childNodes).filter((n) => n.nodeType === 3).map((n) => (n.textContent ?? '').trim()).filter(Boolean)
          : []).catch(() => [] as string[]);
        for (const [index, key] of Object.entries(byIndex)) out[key] = found[Number(index)] ?? '';
      }
      for (const [cls, byIndex] of Object.entries(record<Record<string, string>>(config.class_multiObject_only_child))) {
        const found = await page.$$eval(`.${cls}`, (nodes) => nodes.flatMap((n) => {
          const h3 = n.querySelector('h3');
          return h3 ? [(h3.textContent ?? '').trim()] : [];
        })).catch(() => [] as string[]);
        for (const [index, key] of Object.entries(byIndex)) out[key] = found[Number(index)] ?? '';
      }
      for (const [cls, wanted] of Object.entries(record<string[]>(config.class_multiObject_search_exist))) {
        const found = await texts(page, `.${cls}`);
        for (const item of wanted) if (item !== 'is_other_exist') out[item] = found.includes(item);
        if (wanted.includes('is_other_exist')) out.is_other_exist = found.some((text) => !wanted.includes(text));
      }
      for (const [cls, key] of Object.entries(record<string>(config.class_singleObject))) {
        const found = await texts(page, `.${cls}`);
        out[key] = found[0] ?? '';
      }
      break;
    }
    case 'label':
      for (const [label, key] of Object.entries(record<string>(config.labelObject))) {
        out[key] = ((await page.locator(`text=${label}`).first().textContent().catch(() => '')) ?? '').trim();
      }
      break;
    case 'xpath':
      for (const [xpath, key] of Object.entries(record<string>(config.xpathObject))) {
        const found = page.locator(`xpath=${xpath}`);
        out[key] = (await found.count()) > 0 ? ((await found.first().textContent()) ?? '').trim() : '';
      }
      break;
    case 'input':
      for (const [xpath, key] of Object.entries(record<string>(config.inputObject))) {
        const found = page.locator(`xpath=${xpath}`);
        out[key] = (await found.count()) > 0 ? (await found.first().inputValue()).trim() : '';
      }
      break;
    case 'class&url': {
      const lists = [
        [config.class_multiObject, (cls: string) => texts(page, `.${cls}`)],
        [config.class_multiObject_li, (cls: string) => page.$$eval(`.${cls} li.catAllProducts`, (nodes) =>
          nodes.flatMap((n) => {
            const span = n.querySelector('span');
            return span ? [(span as HTMLElement).innerText.trim()] : [];
          })).catch(() => [] as string[])],
      ] as const;
      for (const [spec, read] of lists) {
        for (const [cls, wanted] of Object.entries(record<string[]>(spec))) {
          const found = await read(cls);
          for (const item of wanted) if (found.some((t) => t.toLowerCase() === item.toLowerCase())) out[item.toLowerCase()] = true;
          if (found.some((t) => wanted.every((item) => !item.toLowerCase().includes(t.toLowerCase())))) out.is_other_exist = true;
          if (!('is_other_exist' in out)) out.is_other_exist = false;
        }
      }
      const pageUrl = page.url().toLowerCase();
      for (const key of Array.isArray(config.url_include_expected) ? config.url_include_expected.map(String) : []) {
        if (!(key.toLowerCase() in out)) out[key.toLowerCase()] = pageUrl.includes(key.toLowerCase());
      }
      for (const [key, value] of Object.entries(record<string>(config.url_include_expected_multichoice))) {
        if (!(value.toLowerCase() in out)) out[value.toLowerCase()] = pageUrl.includes(key.toLowerCase());
      }
      break;
    }
    default:
      throw new GetterError(`active_tab_html_parse: unknown category ${JSON.stringify(config.category)}`);
  }
  return out;
}

export const chromeGetters: Record<string, Getter> = {
  active_url_from_accessTree: getActiveUrlFromAccessTree,
  active_tab_url_parse: urlGetter(parseUrlQuery),
  url_dashPart: urlGetter(urlDashPart),
  url_path_parse: urlGetter(urlPathParse),
  macys_product_url_parse: urlGetter(urlPathParse),
  open_tabs_info: getOpenTabsInfo,
  active_tab_info: getActiveTabInfo,
  active_tab_html_parse: getActiveTabHtmlParse,
  page_info: getPageInfo,
  pdf_from_url: getPdfFromUrl,
  info_from_website: getInfoFromWebsite,
};

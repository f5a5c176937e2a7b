// Chrome setup steps: opening and closing tabs over the DevTools protocol (the desktop's 9222, as OSWorld connects to
// http://<vm>:9222; our container serves it behind the token, see desktop/chrome-devtools.ts), and replacing the browsing
// history before Chrome starts.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { connectOverDevTools } from '../desktop/chrome-devtools.ts';
import { compareUrls } from '../eval/url.ts';
import { buildChromeHistory, type HistoryEntry } from './chrome-history.ts';
import { StepParameterError, StepFailedError } from './errors.ts';
import { entry, list, messageOf, number, sleep, stringList } from './parameters.ts';
import type { SetupContext, SetupStep } from './registry.ts';

/** The desktop image's Chrome profile (google-chrome runs Chromium, whose ~/.config/chromium links here). */
const CHROME_PROFILE_DIR = '/home/user/.config/google-chrome';

export interface ConnectOptions {
  attempts: number;
  /** Pause between attempts. */
  delayMs: number;
}

/** Connects to the desktop's Chrome, retrying while it starts up; throws the last error when it never answers. */
export async function connectChrome(ctx: SetupContext, step: string, options: ConnectOptions): Promise<Browser> {
  const cdp = ctx.cdp;
  if (!cdp) throw new StepFailedError(`${step}: this desktop has no Chrome DevTools endpoint (SetupContext.cdp)`);
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      return await connectOverDevTools(cdp);
    } catch (error) {
      lastError = error;
      ctx.log(`${step}: connecting to Chrome at ${cdp.url} failed (attempt ${attempt}/${options.attempts}): ${firstLine(error)}`);
      if (attempt < options.attempts) await sleep(options.delayMs, ctx.signal);
    }
  }
  throw new StepFailedError(`${step}: could not connect to Chrome at ${cdp.url} after ${options.attempts} attempts: ${firstLine(lastError)}`);
}

function firstLine(error: unknown): string {
  return messageOf(error).split('\n')[0];
}

function defaultContext(browser: Browser, step: string): BrowserContext {
  const [context] = browser.contexts();
  if (!context) throw new StepFailedError(`${step}: Chrome has no browser context (was it started with a profile?)`);
  return context;
}

/**
 * Opens each URL in a new tab of Chrome's first context (60 s per page; a slow page is only logged). After the first
 * URL, the tab Chrome started with is closed, as OSWorld does. OSWorld closes `pages[0]` blindly; we skip that when
 * `pages[0]` is the tab we just opened (Chrome started without a tab), which OSWorld would close by mistake.
 */
export async function openTabs(ctx: SetupContext, browser: Browser, urls: readonly string[], step: string): Promise<void> {
  const context = defaultContext(browser, step);
  for (const [i, url] of urls.entries()) {
    const page = await context.newPage();
    try {
      await page.goto(url, { timeout: 60_000 });
    } catch (error) {
      ctx.log(`${step}: opening ${url} did not finish loading: ${firstLine(error)}`);
    }
    ctx.log(`${step}: opened tab ${i + 1}: ${url}`);
    if (i === 0) {
      const first = context.pages()[0];
      if (first && first !== page) await first.close();
    }
  }
}

/** Leaves Chrome and its tabs as they are; only the DevTools connection is dropped. */
async function disconnect(browser: Browser): Promise<void> {
  await browser.close().catch(() => {});
}

/** `chrome_open_tabs {urls_to_open}`: up to 15 connection attempts 5 s apart, then the tabs. */
const chromeOpenTabs: SetupStep = async (ctx, parameters) => {
  const urls = stringList('chrome_open_tabs', parameters, 'urls_to_open');
  const browser = await connectChrome(ctx, 'chrome_open_tabs', { attempts: 15, delayMs: 5000 });
  try {
    await openTabs(ctx, browser, urls, 'chrome_open_tabs');
  } finally {
    await disconnect(browser);
  }
};

/** `chrome_close_tabs {urls_to_close}`: waits 5 s for Chrome, then closes the first tab matching each URL. */
const chromeCloseTabs: SetupStep = async (ctx, parameters) => {
  const urls = stringList('chrome_close_tabs', parameters, 'urls_to_close');
  await sleep(5000, ctx.signal);
  const browser = await connectChrome(ctx, 'chrome_close_tabs', { attempts: 15, delayMs: 5000 });
  try {
    const context = defaultContext(browser, 'chrome_close_tabs');
    for (const url of urls) {
      const page: Page | undefined = context.pages().find((candidate) => compareUrls(candidate.url(), url));
      if (!page) {
        ctx.log(`chrome_close_tabs: no open tab matches ${url}`);
        continue;
      }
      await page.close();
      ctx.log(`chrome_close_tabs: closed ${url}`);
    }
  } finally {
    await disconnect(browser);
  }
};

/**
 * `update_browse_history {history: [{url, title, visit_time_from_now_in_seconds}]}`: replaces the profile's History
 * database (Chrome must not be running yet, as in the one OSWorld task using it), then makes `user` its owner.
 */
const updateBrowseHistory: SetupStep = async (ctx, parameters) => {
  const step = 'update_browse_history';
  const entries: HistoryEntry[] = list(step, parameters, 'history').map((raw, i) => {
    const item = entry(step, 'history', i, raw);
    if (typeof item.url !== 'string') throw new StepParameterError(`${step}: parameters.history[${i}].url must be a string`);
    return {
      url: item.url,
      title: typeof item.title === 'string' ? item.title : '',
      visit_time_from_now_in_seconds: number(step, item, 'visit_time_from_now_in_seconds'),
    };
  });
  const path = `${CHROME_PROFILE_DIR}/Default/History`;
  await ctx.desktop.upload(path, buildChromeHistory(entries));
  // A journal left by an earlier Chrome run would be replayed over the new file.
  const password = ctx.vars.CLIENT_PASSWORD ?? 'password';
  const fix = await ctx.desktop
    .execute(
      `rm -f '${path}-journal' '${path}-wal'; chown user:user '${path}' 2>/dev/null || echo '${password.replace(/'/g, `'\\''`)}' | sudo -S chown user:user '${path}'`,
      { shell: true, setup: true },
    )
    .catch((error: unknown) => ({ returncode: -1, error: messageOf(error), output: '', status: 'error' }));
  if (fix.returncode !== 0) ctx.log(`${step}: chown of ${path} failed: ${fix.error.trim()}`);
};

export const chromeSteps: Record<string, SetupStep> = {
  chrome_open_tabs: chromeOpenTabs,
  chrome_close_tabs: chromeCloseTabs,
  update_browse_history: updateBrowseHistory,
};

import { describe, expect, test } from 'vitest';
import {
  checkEnabledExperiments,
  checkFontSize,
  checkHistoryDeleted,
  isAddedToSteamCart,
  isCookieDeleted,
  isExpectedActiveTab,
  isExpectedActiveTabApproximate,
  isExpectedBookmarks,
  isExpectedInstalledExtensions,
  isExpectedSearchQuery,
  isExpectedTabs,
  isExpectedUrlPatternMatch,
  isShortcutOnDesktop,
} from '../../../src/eval/metrics/browser.ts';
import { compareUrls, extractDomain } from '../../../src/eval/url.ts';
import { urlparse, urlunparse } from '../../../src/python/urllib.ts';

describe('compare_urls', () => {
  test('public suffix dropped: airbnb.com equals airbnb.com.sg', () => {
    expect(compareUrls('https://www.airbnb.com/', 'https://airbnb.com.sg')).toBe(true);
  });
  test('scheme added when missing, www dropped only when it is the only subdomain, "/" path is empty', () => {
    expect(compareUrls('github.com', 'http://www.github.com/')).toBe(true);
    expect(compareUrls('https://github.com', 'http://github.com')).toBe(false);
    expect(compareUrls('https://docs.python.org/3/', 'https://python.org/3/')).toBe(false);
    expect(compareUrls('https://www.mail.google.com', 'https://mail.google.com')).toBe(false);
  });
  test('query and fragment count only with full=True; the port is dropped', () => {
    expect(compareUrls('https://a.com/x?q=1', 'https://a.com/x?q=2')).toBe(false);
    expect(compareUrls('https://a.com/x?q=1', 'https://a.com/x?q=2', false)).toBe(true);
    expect(compareUrls('http://localhost:8080/x', 'http://localhost/x')).toBe(true);
  });
  test('None handling: two nulls are equal', () => {
    expect(compareUrls(null, null)).toBe(true);
    expect(compareUrls(null, 'a.com')).toBe(false);
  });
  test('tldextract splits (ICANN only; unknown suffix → empty)', () => {
    expect(extractDomain('foo.github.io')).toEqual({ subdomain: 'foo', domain: 'github', suffix: 'io' });
    expect(extractDomain('settings')).toEqual({ subdomain: '', domain: 'settings', suffix: '' });
    expect(extractDomain('.amazon.com')).toEqual({ subdomain: '', domain: 'amazon', suffix: 'com' });
    expect(extractDomain('127.0.0.1:9222')).toEqual({ subdomain: '', domain: '127.0.0.1', suffix: '' });
  });
  test('urlparse/urlunparse round trip as Python', () => {
    expect(urlparse('HTTPS://Example.com/a;p?q=1#f')).toEqual({ scheme: 'https', netloc: 'Example.com', path: '/a', params: 'p', query: 'q=1', fragment: 'f' });
    expect(urlunparse(urlparse('chrome://settings/appearance'))).toBe('chrome://settings/appearance');
    expect(urlunparse(urlparse('file:///home/user/a.html'))).toBe('file:///home/user/a.html');
  });
});

describe('tabs and active tab', () => {
  const tabs = (urls: string[]) => urls.map((url) => ({ title: '', url }));
  test('is_expected_tabs: same count, each expected URL matched, order ignored', () => {
    const rules = { type: 'url', urls: ['https://github.com', 'https://docs.python.org/3/'] };
    expect(isExpectedTabs(tabs(['https://docs.python.org/3/', 'https://github.com/']), rules)).toBe(1);
    expect(isExpectedTabs(tabs(['https://github.com/']), rules)).toBe(0);
    expect(isExpectedTabs([], rules)).toBe(0);
  });
  test('is_expected_tabs is one-directional: duplicates on the actual side are not noticed', () => {
    const rules = { type: 'url', urls: ['https://a.com', 'https://a.com'] };
    expect(isExpectedTabs(tabs(['https://a.com', 'https://b.com']), rules)).toBe(1);
  });
  test('is_expected_active_tab: dict or plain URL', () => {
    expect(isExpectedActiveTab({ url: 'https://www.drugs.com/npc/' }, { type: 'url', url: 'https://www.drugs.com/npc/' })).toBe(1);
    expect(isExpectedActiveTab('drugs.com/npc', { type: 'url', url: 'https://www.drugs.com/npc/' })).toBe(0);
    expect(isExpectedActiveTab('https://drugs.com/npc/', { type: 'url', url: 'https://www.drugs.com/npc/' })).toBe(1);
  });
  test('is_expected_active_tab_approximate only strips the query, no other normalisation', () => {
    const rules = { type: 'url', url: 'chrome://password-manager/passwords' };
    expect(isExpectedActiveTabApproximate('chrome://password-manager/passwords?q=x', rules)).toBe(1);
    expect(isExpectedActiveTabApproximate('chrome://password-manager/passwords/', rules)).toBe(0);
  });
  test('is_expected_url_pattern_match: every regex must match', () => {
    expect(isExpectedUrlPatternMatch('chrome://settings/appearance', { expected: ['^chrome://settings/appearance/?$'] })).toBe(1);
    expect(isExpectedUrlPatternMatch({ url: 'chrome://settings/fonts' }, { expected: ['^chrome://settings/appearance/?$'] })).toBe(0);
  });
  test('is_expected_search_query with an inline (?i) flag (corpus task f8cfa149)', () => {
    const rules = { expect: { pattern: '(?i)https?://(?:www\\.)?google\\.com/(?:search\\?q=nereida(?:&|$|#)|sorry/index\\?.*?continue=https?://(?:www\\.)?google\\.com/search%3Fq%3Dnereida).*' } };
    expect(isExpectedSearchQuery({ url: 'https://www.Google.com/search?q=nereida&hl=en' }, rules)).toBe(1);
    expect(isExpectedSearchQuery({ url: 'https://www.google.com/search?q=nereidas' }, rules)).toBe(0);
  });
});

describe('profile state', () => {
  const roots = {
    bookmark_bar: {
      children: [
        { type: 'folder', name: 'Liked Authors', children: [{ type: 'url', url: 'https://jimfan.me/' }, { type: 'url', url: 'https://yukezhu.me/' }] },
        { type: 'url', url: 'https://jalammar.github.io/illustrated-transformer/' },
      ],
    },
  };
  test('bookmark bar URLs and folder names as sets', () => {
    expect(isExpectedBookmarks(roots, { type: 'bookmark_bar_websites_urls', urls: ['https://jalammar.github.io/illustrated-transformer/'] })).toBe(1);
    expect(isExpectedBookmarks(roots, { type: 'bookmark_bar_folders_names', names: ['Liked Authors'] })).toBe(1);
    expect(isExpectedBookmarks(roots, { type: 'bookmark_bar_folders_names', names: ['Other'] })).toBe(0);
  });
  test('Liked Authors: one alternative per author must give exactly the folder URLs', () => {
    const urls = [['https://jimfan.me/', 'https://www.linkedin.com/in/drjimfan/'], ['https://yukezhu.me/', 'https://experts.utexas.edu/yuke_zhu']];
    expect(isExpectedBookmarks(roots, { type: 'liked_authors_websites_urls', urls })).toBe(1);
    expect(isExpectedBookmarks(roots, { type: 'liked_authors_websites_urls', urls: [...urls, ['https://x.com/']] })).toBe(0);
  });
  test('installed extensions: subset with aliases', () => {
    expect(isExpectedInstalledExtensions(['Zoom Chrome Extension', 'Momentum'], { expected: ['Zoom for Google Chrome'] })).toBe(1);
    expect(isExpectedInstalledExtensions(['Momentum'], { expected: ['Momentum', 'Google Translate'] })).toBe(0);
  });
  test('cookies: no host matching a domain (compare_urls, suffix-free)', () => {
    expect(isCookieDeleted([[1, '.google.com', 'NID']], { type: 'domains', domains: ['.amazon.com'] })).toBe(1);
    expect(isCookieDeleted([[1, '.amazon.co.uk', 'x']], { type: 'domains', domains: ['.amazon.com'] })).toBe(0);
  });
  test('history: no URL containing a keyword', () => {
    expect(checkHistoryDeleted([['https://www.google.com/', 'Google', 1]], { type: 'keywords', keywords: ['youtube'] })).toBe(1);
    expect(checkHistoryDeleted([['https://www.youtube.com/watch', 'YT', 1]], { type: 'keywords', keywords: ['youtube'] })).toBe(0);
  });
  test('enabled experiments in order, without the @option suffix', () => {
    expect(checkEnabledExperiments(['tab-search@1', 'smooth-scrolling@2'], { type: 'names', names: ['tab-search', 'smooth-scrolling'] })).toBe(1);
    expect(checkEnabledExperiments(['smooth-scrolling@2', 'tab-search@1'], { type: 'names', names: ['tab-search', 'smooth-scrolling'] })).toBe(0);
  });
  test('font size: value or open range', () => {
    expect(checkFontSize({ default_font_size: 20 }, { type: 'range', min: 16, max: 99999 })).toBe(1);
    expect(checkFontSize({ default_font_size: 16 }, { type: 'range', min: 16, max: 99999 })).toBe(0);
    expect(checkFontSize({ default_font_size: 16 }, { type: 'value', value: 16 })).toBe(1);
  });
});

describe('desktop shortcut and Steam cart', () => {
  const shortcuts = { '/home/user/Desktop/2048.desktop': '[Desktop Entry]\nName=Play Puzzle Game 2048 Online\nExec=/opt/google/chrome/google-chrome --profile-directory=Default --app-id=abc\n' };
  test('name: exact line, or containment either way (case-insensitive)', () => {
    expect(isShortcutOnDesktop(shortcuts, { type: 'name', name: 'Play Puzzle Game 2048' })).toBe(1);
    expect(isShortcutOnDesktop(shortcuts, { type: 'name', name: 'Sudoku' })).toBe(0);
    expect(isShortcutOnDesktop(shortcuts, { type: 'name', name: 'play puzzle GAME 2048' })).toBe(1);
  });
  test('exec: exact or contained', () => {
    expect(isShortcutOnDesktop(shortcuts, { type: 'exec', exec: '--app-id=abc' })).toBe(1);
    expect(isShortcutOnDesktop(shortcuts, { type: 'exec', exec: 'firefox' })).toBe(0);
    expect(isShortcutOnDesktop(shortcuts, { type: 'exec', exec: '--APP-ID=abc' })).toBe(0); // case counts here
  });
  test('another rule type is an error, as in OSWorld', () => {
    expect(() => isShortcutOnDesktop(shortcuts, { type: 'icon', icon: 'x' })).toThrow('icon not support yet!');
  });
  test('is_added_to_steam_cart: every item in the page HTML', () => {
    expect(isAddedToSteamCart({ content: '<div>The Dota 2 Official Soundtrack</div>' }, { items: ['The Dota 2 Official Soundtrack'] })).toBe(1);
    expect(isAddedToSteamCart({ content: '<div>Your cart is empty</div>' }, { items: ['The Dota 2 Official Soundtrack'] })).toBe(0);
  });
});

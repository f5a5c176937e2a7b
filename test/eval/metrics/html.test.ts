import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkAccessibilityTree, checkHtmlBackgroundImage, compareHtmls } from '../../../src/eval/metrics/html.ts';
import { htmlRoot, parseHtml, prettyPrintHtml } from '../../../src/eval/formats/html-tree.ts';

const f = (name: string) => join(import.meta.dirname, '../../../fixtures/text', name);

describe('compare_htmls', () => {
  test('class spacing does not matter (BeautifulSoup splits it into a list); sdnum differences only pass with ignore_sdnum', () => {
    expect(compareHtmls(f('page-a.html'), f('page-b.html'), {})).toBe(0);
    expect(compareHtmls(f('page-a.html'), f('page-b.html'), { ignore_sdnum: true })).toBe(1);
  });
  test('class order matters (lists compare in order)', () => {
    expect(compareHtmls(f('page-a.html'), f('page-d.html'), {})).toBe(0);
  });
  test('different text fails', () => {
    expect(compareHtmls(f('page-c.html'), f('page-c.html'), {})).toBe(1);
    expect(compareHtmls(f('page-a.html'), f('page-c.html'), {})).toBe(0);
  });
  test('OSWorld zips the two walks: an extra trailing <hr> (ancestor text unchanged) is never compared', () => {
    expect(compareHtmls(f('page-longer.html'), f('page-a.html'), {})).toBe(1);
  });
});

describe('check_html_background_image', () => {
  test("finds background-image: url('…') in a <style> block", () => {
    expect(checkHtmlBackgroundImage(f('background.html'), { value: 'background.jpg' })).toBe(1);
    expect(checkHtmlBackgroundImage(f('background.html'), { value: 'other.jpg' })).toBe(0);
  });
});

describe('pretty printer (lxml.html.tostring pretty_print)', () => {
  test('block children on their own lines, single children and inline runs kept on one line', () => {
    const html = '<html><head><title>T</title></head><body><h1>A</h1><p>x <b>y</b></p><ul><li>1</li><li>2</li></ul></body></html>';
    expect(prettyPrintHtml(htmlRoot(parseHtml(html)))).toBe('<html>\n<head><title>T</title></head>\n<body>\n<h1>A</h1>\n<p>x <b>y</b></p>\n<ul>\n<li>1</li>\n<li>2</li>\n</ul>\n</body>\n</html>\n');
  });
});

describe('check_accessibility_tree', () => {
  const xml = readFileSync(f('a11y.xml'), 'utf8');
  test('CSS selectors with attribute namespaces, ~ and > (corpus task f5c13cdd)', () => {
    const pill = (who: string) => ({ selectors: [`tool-bar[attr|id=MsgHeadersToolbar] label[name=To]~[attr|class="address-pill"]>label[attr|class="pill-label"][name*="${who}"]`] });
    expect(checkAccessibilityTree(xml, [pill('fox@someuniversity.edu'), pill('iron@someuniversity.edu')])).toBe(1);
    expect(checkAccessibilityTree(xml, [pill('fox@someuniversity.edu'), pill('nancy@someuniversity.edu')])).toBe(0);
  });
  test('page tab selector (corpus task 7b1e1ff9)', () => {
    expect(checkAccessibilityTree(xml, [{ selectors: ['application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="About Profiles"]'] }])).toBe(1);
    expect(checkAccessibilityTree(xml, [{ selectors: ['application[name=Thunderbird] page-tab-list[attr|id="tabmail-tabs"]>page-tab[name="Settings"]'] }])).toBe(0);
  });
  test('XPath with contains(text()) / contains(@name) (corpus task 15c3b339)', () => {
    const rules = [
      { xpath: "//application[@name='Thunderbird']//*[contains(text(), 'anonym-x2024@outlook.com') or contains(@name, 'anonym-x2024@outlook.com')]" },
      { xpath: "//application[@name='Thunderbird']//*[contains(@name, 'password') or contains(@name, 'Password')]" },
    ];
    expect(checkAccessibilityTree(xml, rules.slice(0, 1))).toBe(1);
    expect(checkAccessibilityTree(xml, rules)).toBe(0);
  });
  test('text rules: exact → 0/1; fuzzy → ratio; the product over rules (LCS 12, lengths 12+13: 24/25 = 0.96)', () => {
    expect(checkAccessibilityTree(xml, [{ xpath: "//text[@name='Subject']", text: 'Weekly report', exact: true }])).toBe(1);
    expect(checkAccessibilityTree(xml, [{ xpath: "//text[@name='Subject']", text: 'Weekly reprt', exact: true }])).toBe(0);
    const score = checkAccessibilityTree(xml, [
      { xpath: "//text[@name='Subject']", text: 'Weekly reprt', exact: false },
      { selectors: ['entry[name=Account]'], text: 'anonym-x2024@outlook.com', exact: true },
    ]);
    expect(score).toBeCloseTo(0.96, 12);
  });
  test('a text rule without "exact" raises as OSWorld does (KeyError)', () => {
    expect(() => checkAccessibilityTree(xml, [{ xpath: '//text', text: 'x' }])).toThrow(/needs "exact"/);
  });
  test('st:/attr: prefixes resolve through the ubuntu namespace map', () => {
    expect(checkAccessibilityTree(xml, [{ xpath: "//frame[@st:active='true']" }])).toBe(1);
    expect(checkAccessibilityTree(xml, [{ xpath: '//frame[@st:focused]' }])).toBe(0);
  });
});

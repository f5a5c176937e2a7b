import { describe, expect, test } from 'vitest';
import { checkGnomeFavoriteApps, checkMovedJpgs, checkTextEnlarged, isInVmClickboard, isUtc0 } from '../../../src/eval/metrics/os.ts';
import { parsePythonLiteral } from '../../../src/python/parse.ts';

describe('check_gnome_favorite_apps', () => {
  test('same length and same set as gsettings prints it', () => {
    expect(checkGnomeFavoriteApps("['thunderbird.desktop', 'google-chrome.desktop']\n", { expected: ['google-chrome.desktop', 'thunderbird.desktop'] })).toBe(1);
    expect(checkGnomeFavoriteApps("['thunderbird.desktop', 'vim.desktop', 'google-chrome.desktop']\n", { expected: ['google-chrome.desktop', 'thunderbird.desktop'] })).toBe(0);
  });
  test("gsettings' empty list `@as []` is not Python: eval raises", () => {
    expect(() => checkGnomeFavoriteApps('@as []\n', { expected: [] })).toThrow(SyntaxError);
    expect(parsePythonLiteral("('a', 1.5, True, None)")).toEqual(['a', 1.5, true, null]);
  });
});

describe('is_utc_0', () => {
  const output = (zone: string) => `               Local time: Thu 2024-01-25 12:56:06 WET\n           Universal time: Thu 2024-01-25 12:56:06 UTC\n                 RTC time: Thu 2024-01-25 12:56:05\n                Time zone: ${zone}\nSystem clock synchronized: yes\n`;
  test('the 4th line ends with +0000)', () => {
    expect(isUtc0(output('Atlantic/Faroe (WET, +0000)'))).toBe(1);
    expect(isUtc0(output('Asia/Shanghai (CST, +0800)'))).toBe(0);
  });
});

describe('check_text_enlarged', () => {
  test('scaling factor above 1.0', () => {
    expect(checkTextEnlarged('1.25\n')).toBe(1);
    expect(checkTextEnlarged('1.0\n')).toBe(0);
  });
});

describe('check_moved_jpgs', () => {
  const tree = (names: string[]) => ({ name: 'cpjpg', type: 'directory', children: names.map((name) => ({ name, type: 'file' })) });
  test('exactly the expected files', () => {
    expect(checkMovedJpgs(tree(['b.jpg', 'a.jpg']), { expected: ['a.jpg', 'b.jpg'] })).toBe(1);
    expect(checkMovedJpgs(tree(['a.jpg']), { expected: ['a.jpg', 'b.jpg'] })).toBe(0);
  });
});

describe('is_in_vm_clickboard', () => {
  test('the rule is the result side, the clipboard the expected side', () => {
    expect(isInVmClickboard({ expected: '/home/user/Data3/List3/secret.docx' }, '/home/user/Data3/List3/secret.docx')).toBe(1);
    expect(isInVmClickboard({ expected: ['a', 'b'] }, 'a and b')).toBe(1);
    expect(isInVmClickboard({ expected: ['a', 'c'] }, 'a and b')).toBe(0);
  });
});

import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { checkLibreLocale, checkMp3Meta, readId3 } from '../../../src/eval/metrics/apps.ts';
import { fnmatchcase } from '../../../src/python/fnmatch.ts';

const f = (name: string) => join(import.meta.dirname, '../../../fixtures/apps', name);

describe('check_mp3_meta', () => {
  test('ID3v2.3 UTF-16 title and Latin-1 artist (corpus task 3f05f3b9)', () => {
    expect(checkMp3Meta(f('missing-you.mp3'), { title: { method: 'eq', ref: 'Missing You' }, artist: { method: 'eq', ref: 'Cheng Xiang' } })).toBe(1);
    expect(checkMp3Meta(f('missing-you.mp3'), { title: { method: 'eq', ref: 'Missing Me' } })).toBe(0);
  });
  test('ID3v2.4 multiple values join with ","; absent keys read as ""', () => {
    expect(readId3(f('two-artists.mp3')).get('TPE1')).toEqual(['Chen Shaohua', 'Guest']);
    expect(checkMp3Meta(f('two-artists.mp3'), { artist: { method: 'eq', ref: 'Chen Shaohua,Guest' }, album: { method: 'eq', ref: '' } })).toBe(1);
  });
  test('a file without a tag raises like mutagen; a null result scores 0', () => {
    expect(() => checkMp3Meta(f('untagged.mp3'), { title: { method: 'eq', ref: '' } })).toThrow(/ID3/);
    expect(checkMp3Meta(null, {})).toBe(0);
  });
});

describe('check_libre_locale', () => {
  test('ooSetupSystemLocale wins over ooLocale; fnmatch patterns', () => {
    expect(checkLibreLocale(f('registrymodifications.xcu'), { locale_set: ['zh-*'] })).toBe(1);
    expect(checkLibreLocale(f('registrymodifications.xcu'), { locale_set: ['en-US', 'de-*'] })).toBe(0);
  });
  test('fnmatchcase semantics', () => {
    expect(fnmatchcase('zh-CN', 'zh-[CT][NW]')).toBe(true);
    expect(fnmatchcase('zh-cn', 'zh-CN')).toBe(false);
    expect(fnmatchcase('en-US', '[!z]*')).toBe(true);
  });
});

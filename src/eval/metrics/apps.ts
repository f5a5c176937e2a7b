// Settings and metadata of other desktop applications: MP3 tags as mutagen's EasyID3 exposes them (others.py) and the
// LibreOffice UI locale from registrymodifications.xcu (libreoffice.py).
import { readFileSync } from 'node:fs';
import type { Metric } from '../registry.ts';
import type { ValueRule } from './rule-match.ts';
import { rulesOf } from './arguments.ts';
import { matchValueToRuleStrict } from './rule-match.ts';
import { readPythonText } from '../../python/io.ts';
import { fnmatchcase } from '../../python/fnmatch.ts';
import { cssSelectElements, elementText, parseXml } from '../formats/xml-query.ts';
import { MalformedInputError } from '../../errors.ts';

// EasyID3 keys → ID3v2.4 text frames (mutagen's registrations for text keys).
const EASY_KEYS: Record<string, string> = {
  album: 'TALB', bpm: 'TBPM', compilation: 'TCMP', composer: 'TCOM', copyright: 'TCOP', encodedby: 'TENC',
  lyricist: 'TEXT', length: 'TLEN', media: 'TMED', mood: 'TMOO', grouping: 'TIT1', title: 'TIT2', version: 'TIT3',
  artist: 'TPE1', albumartist: 'TPE2', conductor: 'TPE3', arranger: 'TPE4', discnumber: 'TPOS', organization: 'TPUB',
  tracknumber: 'TRCK', author: 'TOLY', albumartistsort: 'TSO2', albumsort: 'TSOA', composersort: 'TSOC',
  artistsort: 'TSOP', titlesort: 'TSOT', isrc: 'TSRC', discsubtitle: 'TSST', language: 'TLAN', genre: 'TCON',
  date: 'TDRC', originaldate: 'TDOR',
};
// ID3v2.2 three-letter frames and v2.3-only frames, upgraded as mutagen does when it loads a tag.
const UPGRADE: Record<string, string> = {
  TT1: 'TIT1', TT2: 'TIT2', TT3: 'TIT3', TP1: 'TPE1', TP2: 'TPE2', TP3: 'TPE3', TP4: 'TPE4', TCM: 'TCOM', TXT: 'TEXT',
  TLA: 'TLAN', TCO: 'TCON', TAL: 'TALB', TPA: 'TPOS', TRK: 'TRCK', TRC: 'TSRC', TYE: 'TDRC', TCR: 'TCOP', TPB: 'TPUB',
  TEN: 'TENC', TLE: 'TLEN', TBP: 'TBPM', TMT: 'TMED', TOL: 'TOLY', TYER: 'TDRC', TORY: 'TDOR',
};
const GENRES = ['Blues', 'Classic Rock', 'Country', 'Dance', 'Disco', 'Funk', 'Grunge', 'Hip-Hop', 'Jazz', 'Metal', 'New Age', 'Oldies', 'Other', 'Pop', 'R&B', 'Rap', 'Reggae', 'Rock', 'Techno', 'Industrial', 'Alternative', 'Ska', 'Death Metal', 'Pranks', 'Soundtrack'];

function syncsafe(b: Uint8Array, at: number): number {
  return ((b[at] & 0x7f) << 21) | ((b[at + 1] & 0x7f) << 14) | ((b[at + 2] & 0x7f) << 7) | (b[at + 3] & 0x7f);
}

function deunsync(b: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < b.length; i++) {
    out.push(b[i]);
    if (b[i] === 0xff && b[i + 1] === 0x00) i++;
  }
  return Uint8Array.from(out);
}

function decodeText(body: Uint8Array): string[] {
  const encoding = body[0];
  const data = body.subarray(1);
  let text: string;
  if (encoding === 0) text = Buffer.from(data).toString('latin1'); // ISO-8859-1 (TextDecoder's latin1 is cp1252)
  else if (encoding === 1) text = new TextDecoder('utf-16').decode(data); // honours the BOM
  else if (encoding === 2) text = new TextDecoder('utf-16be').decode(data);
  else if (encoding === 3) text = new TextDecoder('utf-8').decode(data);
  else throw new MalformedInputError(`ID3: unknown text encoding ${encoding}`);
  // Values are NUL-separated; a trailing NUL terminates the last one.
  return text.replace(/\u0000+$/, '').split('\u0000');
}

/** Reads the ID3v2 text frames (or, without an ID3v2 tag, the ID3v1 tag) as frame id → list of values. */
export function readId3(path: string): Map<string, string[]> {
  const file = readFileSync(path);
  const frames = new Map<string, string[]>();
  if (file.length >= 10 && file.toString('latin1', 0, 3) === 'ID3') {
    const major = file[3];
    const flags = file[5];
    let tag: Uint8Array = file.subarray(10, 10 + syncsafe(file, 6));
    if (flags & 0x80 && major < 4) tag = deunsync(tag);
    let at = 0;
    if (flags & 0x40) at = major === 4 ? syncsafe(tag, 0) : 4 + ((tag[0] << 24) | (tag[1] << 16) | (tag[2] << 8) | tag[3]);
    const headerSize = major === 2 ? 6 : 10;
    while (at + headerSize <= tag.length && tag[at] !== 0) {
      const id = Buffer.from(tag.subarray(at, at + (major === 2 ? 3 : 4))).toString('latin1');
      const size = major === 2 ? (tag[at + 3] << 16) | (tag[at + 4] << 8) | tag[at + 5] : major === 4 ? syncsafe(tag, at + 4) : ((tag[at + 4] << 24) | (tag[at + 5] << 16) | (tag[at + 6] << 8) | tag[at + 7]) >>> 0;
      const formatFlags = major === 2 ? 0 : tag[at + 9];
      let body: Uint8Array = tag.subarray(at + headerSize, at + headerSize + size);
      at += headerSize + size;
      if (major === 4) {
        if (formatFlags & 0x01) body = body.subarray(4); // data length indicator
        if (formatFlags & 0x02 || flags & 0x80) body = deunsync(body);
      }
      const name = UPGRADE[id] ?? id;
      if (!name.startsWith('T') || name === 'TXXX' || body.length === 0) continue;
      if (major === 3 && formatFlags & 0xc0) continue; // compressed or encrypted: mutagen reads these, rare in practice
      frames.set(name, [...(frames.get(name) ?? []), ...decodeText(body)]);
    }
    return frames;
  }
  if (file.length >= 128 && file.toString('latin1', file.length - 128, file.length - 125) === 'TAG') {
    const v1 = file.subarray(file.length - 128);
    const field = (from: number, length: number) => Buffer.from(v1.subarray(from, from + length)).toString('latin1').replace(/[\u0000 ]+$/, '');
    const put = (id: string, value: string) => value && frames.set(id, [value]);
    put('TIT2', field(3, 30));
    put('TPE1', field(33, 30));
    put('TALB', field(63, 30));
    put('TDRC', field(93, 4));
    if (v1[125] === 0 && v1[126] !== 0) put('TRCK', String(v1[126]));
    if (v1[127] < GENRES.length) put('TCON', GENRES[v1[127]]);
    return frames;
  }
  throw new MalformedInputError(`${path} doesn't start with an ID3 tag`);
}

/**
 * check_mp3_meta(mp3, {key: {method, ref}}): each EasyID3 key's values (joined with ",", "" when absent) must match
 * its rule.
 */
export function checkMp3Meta(result: unknown, expected: unknown): number {
  if (result === null || result === undefined) return 0;
  const frames = readId3(String(result));
  const meta = rulesOf(expected, 'check_mp3_meta') as Record<string, ValueRule>;
  let metric = true;
  for (const [key, rule] of Object.entries(meta)) {
    // EasyID3.get(key, "") also answers "" for a key it does not know.
    const frame = EASY_KEYS[key];
    const value = frame ? (frames.get(frame) ?? []).join(',') : '';
    metric &&= matchValueToRuleStrict(value, rule);
  }
  return metric ? 1 : 0;
}

const OOR = { oor: 'http://openoffice.org/2001/registry' };

/**
 * check_libre_locale(registrymodifications.xcu, {locale_set: [pattern]}): the UI locale (ooSetupSystemLocale, else
 * ooLocale) matches one of the fnmatch patterns. A file with neither raises (IndexError in OSWorld).
 */
export function checkLibreLocale(result: unknown, expected: unknown): number {
  const root = parseXml(readPythonText(String(result)));
  const setup = cssSelectElements(root, 'item[oor|path$=L10N]>prop[oor|name=ooSetupSystemLocale]>value', OOR);
  const locale = cssSelectElements(root, 'item[oor|path$=L10N]>prop[oor|name=ooLocale]>value', OOR);
  const chosen = setup[0] ?? locale[0];
  if (!chosen) throw new MalformedInputError('check_libre_locale: no ooSetupSystemLocale or ooLocale value in the file');
  const value = elementText(chosen);
  if (value === null) throw new TypeError('check_libre_locale: the locale value is empty (None in OSWorld)');
  const patterns = rulesOf(expected, 'check_libre_locale').locale_set as string[];
  return patterns.some((p) => fnmatchcase(value, p)) ? 1 : 0;
}

export const appMetrics: Record<string, Metric> = {
  check_mp3_meta: checkMp3Meta,
  check_libre_locale: checkLibreLocale,
};

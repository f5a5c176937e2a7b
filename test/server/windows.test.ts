// Parsing `wmctrl -l` (server/windows.ts): the title is everything after the host, spaces included.
import { expect, test } from 'vitest';
import { parseWindowList } from '../../server/windows.ts';

test('ids and titles from wmctrl -l, including sticky windows, titles with spaces and untitled windows', () => {
  const output = [
    '0x01c00003  0 desktop Untitled Document 1 - gedit',
    '0x02400006 -1 desktop Top  Bar',
    '0x03000001  0 N/A ',
    '0x03000002  0 desktop',
    '',
    '   ',
  ].join('\n');
  expect(parseWindowList(output)).toEqual([
    { id: '0x01c00003', title: 'Untitled Document 1 - gedit' },
    { id: '0x02400006', title: 'Top  Bar' },
    { id: '0x03000001', title: '' },
    { id: '0x03000002', title: '' },
  ]);
});

test('no windows, no entries', () => {
  expect(parseWindowList('')).toEqual([]);
  expect(parseWindowList('\n')).toEqual([]);
});

// shlex.split (the control server's and check's), checked against what Python's shlex.split gives for the same strings.
import { expect, test } from 'vitest';
import { shlexSplit } from '../../src/shared/shlex.ts';

test('matches Python shlex.split (POSIX mode)', () => {
  // Expected values: python3 -c "import shlex; print(shlex.split(s))"
  expect(shlexSplit(`python -c "import pyautogui; pyautogui.click(1, 2)"`)).toEqual(['python', '-c', 'import pyautogui; pyautogui.click(1, 2)']);
  expect(shlexSplit(`a 'b c' "d \\"e\\" \\n" f\\ g`)).toEqual(['a', 'b c', 'd "e" \\n', 'f g']);
  expect(shlexSplit(`x''y "" '' # z`)).toEqual(['xy', '', '', '#', 'z']);
  expect(shlexSplit('  spaced\targs\n')).toEqual(['spaced', 'args']);
  expect(() => shlexSplit(`'open`)).toThrow('No closing quotation');
  expect(() => shlexSplit('end\\')).toThrow('No escaped character');
});

test('lenient mode (check reading task commands) never throws: an unclosed quote runs to the end, a trailing backslash stays', () => {
  expect(shlexSplit(`echo 'open quote`, { lenient: true })).toEqual(['echo', 'open quote']);
  expect(shlexSplit(`say "half \\"done`, { lenient: true })).toEqual(['say', 'half "done']);
  expect(shlexSplit('end\\', { lenient: true })).toEqual(['end\\']);
  expect(shlexSplit(`a 'b c' d`, { lenient: true })).toEqual(shlexSplit(`a 'b c' d`));
});

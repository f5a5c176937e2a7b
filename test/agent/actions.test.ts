import { describe, expect, it } from 'vitest';
import { ActionError } from '../../src/errors.ts';
import { fixPyautoguiLessThan, isSpecialAction, specialActionType, toPyautoguiCode, typewriteCode } from '../../src/agent/actions.ts';
import { decodeUnicodeEscape } from '../../src/python/codecs.ts';
import { pythonStringRepr } from '../../src/python/string-literal.ts';
import { isKeyboardKey, KEYBOARD_KEYS } from '../../src/agent/keyboard-keys.ts';
import type { Action } from '../../src/agent/types.ts';

const HOTKEY_LT = 'pyautogui.hotkey("shift", ",")';
const fixedRandom = () => 0; // MOVE_TO: duration 0.5, first easing

describe('special actions', () => {
  it('are recognised as strings and as {action_type}', () => {
    for (const type of ['WAIT', 'FAIL', 'DONE'] as const) {
      expect(toPyautoguiCode(type)).toBe(type);
      expect(toPyautoguiCode({ action_type: type })).toBe(type);
      expect(isSpecialAction(type)).toBe(true);
      expect(isSpecialAction({ action_type: type, parameters: {} })).toBe(true);
    }
    expect(specialActionType(' DONE\n')).toBe('DONE');
    expect(isSpecialAction('done')).toBe(false);
    expect(isSpecialAction('pyautogui.click()')).toBe(false);
    expect(isSpecialAction({ action_type: 'CLICK' })).toBe(false);
    expect(isSpecialAction(null)).toBe(false);
  });
});

describe('computer_13 → pyautogui', () => {
  const cases: Array<[string, Action, string]> = [
    ['MOVE_TO', { action_type: 'MOVE_TO', x: 100, y: 200 }, 'pyautogui.moveTo(100, 200, 0.5, pyautogui.easeInQuad)'],
    ['CLICK bare', { action_type: 'CLICK' }, 'pyautogui.click()'],
    ['CLICK full', { action_type: 'CLICK', button: 'right', x: 5, y: 6, num_clicks: 2 }, "pyautogui.click(button='right', x=5, y=6, clicks=2)"],
    ['CLICK at', { action_type: 'CLICK', x: 5.5, y: 6 }, 'pyautogui.click(x=5.5, y=6)'],
    ['CLICK button only', { action_type: 'CLICK', button: 'middle' }, "pyautogui.click(button='middle')"],
    ['MOUSE_DOWN', { action_type: 'MOUSE_DOWN' }, 'pyautogui.mouseDown()'],
    ['MOUSE_DOWN right', { action_type: 'MOUSE_DOWN', button: 'right' }, "pyautogui.mouseDown(button='right')"],
    ['MOUSE_UP', { action_type: 'MOUSE_UP', button: 'left' }, "pyautogui.mouseUp(button='left')"],
    ['RIGHT_CLICK', { action_type: 'RIGHT_CLICK', x: 1, y: 2 }, 'pyautogui.rightClick(x=1, y=2)'],
    ['RIGHT_CLICK here', { action_type: 'RIGHT_CLICK' }, 'pyautogui.rightClick()'],
    ['DOUBLE_CLICK', { action_type: 'DOUBLE_CLICK', x: 3, y: 4 }, 'pyautogui.doubleClick(x=3, y=4)'],
    ['DRAG_TO', { action_type: 'DRAG_TO', x: 30, y: 40 }, "pyautogui.dragTo(30, 40, duration=1.0, button='left', mouseDownUp=True)"],
    ['SCROLL dy', { action_type: 'SCROLL', dy: -3 }, 'pyautogui.vscroll(-3)'],
    ['SCROLL both', { action_type: 'SCROLL', dx: 2, dy: 5 }, 'pyautogui.hscroll(2); pyautogui.vscroll(5)'],
    ['TYPING', { action_type: 'TYPING', text: "it's done\n" }, 'pyautogui.typewrite("it\'s done\\n")'],
    ['PRESS', { action_type: 'PRESS', key: 'enter' }, "pyautogui.press('enter')"],
    ['PRESS quote', { action_type: 'PRESS', key: "'" }, 'pyautogui.press("\'")'],
    ['KEY_DOWN', { action_type: 'KEY_DOWN', key: 'shift' }, "pyautogui.keyDown('shift')"],
    ['KEY_UP', { action_type: 'KEY_UP', key: 'Shift' }, "pyautogui.keyUp('Shift')"],
    ['HOTKEY', { action_type: 'HOTKEY', keys: ['ctrl', 'alt', 't'] }, "pyautogui.hotkey('ctrl', 'alt', 't')"],
  ];
  it.each(cases)('%s', (_name, action, code) => {
    expect(toPyautoguiCode(action, { random: fixedRandom })).toBe(code);
  });

  it('reads parameters under `parameters` (and then ignores top-level ones, as OSWorld does)', () => {
    expect(toPyautoguiCode({ action_type: 'CLICK', parameters: { x: 7, y: 8 } })).toBe('pyautogui.click(x=7, y=8)');
    expect(toPyautoguiCode({ action_type: 'PRESS', key: 'tab', parameters: { key: 'esc' } } as Action)).toBe("pyautogui.press('esc')");
    expect(toPyautoguiCode({ action_type: 'MOUSE_UP', parameters: null } as unknown as Action)).toBe('pyautogui.mouseUp()');
  });

  it('MOVE_TO draws duration in [0.5, 1] and one of the five easings', () => {
    expect(toPyautoguiCode({ action_type: 'MOVE_TO', x: 1, y: 2 }, { random: () => 0.999 }))
      .toBe('pyautogui.moveTo(1, 2, 1, pyautogui.easeInElastic)');
    const code = toPyautoguiCode({ action_type: 'MOVE_TO', x: 1, y: 2 }) as string;
    const [, duration, easing] = /moveTo\(1, 2, ([\d.]+), (pyautogui\.\w+)\)/.exec(code)!;
    expect(Number(duration)).toBeGreaterThanOrEqual(0.5);
    expect(Number(duration)).toBeLessThanOrEqual(1);
    expect(['pyautogui.easeInQuad', 'pyautogui.easeOutQuad', 'pyautogui.easeInOutQuad', 'pyautogui.easeInBounce', 'pyautogui.easeInElastic']).toContain(easing);
  });

  it('types `<` with hotkey("shift", ",") pieces', () => {
    expect(toPyautoguiCode({ action_type: 'TYPING', text: 'a<b' })).toBe(`pyautogui.typewrite('a'); ${HOTKEY_LT}; pyautogui.typewrite('b')`);
    expect(toPyautoguiCode({ action_type: 'TYPING', text: '<\n' })).toBe(`${HOTKEY_LT}; pyautogui.typewrite('\\n')`);
    expect(toPyautoguiCode({ action_type: 'PRESS', key: '<' })).toBe(HOTKEY_LT);
    expect(typewriteCode('x < y <')).toBe(`pyautogui.typewrite('x '); ${HOTKEY_LT}; pyautogui.typewrite(' y '); ${HOTKEY_LT}`);
  });

  it('rejects bad actions with an error naming the action type and the field', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ action_type: 'CLICK', x: 'abc', y: 1 }, /^CLICK: x must be a number, got "abc"$/],
      [{ action_type: 'CLICK', x: 1 }, /^CLICK: x and y must be given together/],
      [{ action_type: 'CLICK', button: 'up' }, /^CLICK: button must be "left", "right" or "middle"/],
      [{ action_type: 'CLICK', num_clicks: 0 }, /^CLICK: num_clicks must be a positive integer/],
      [{ action_type: 'MOVE_TO', x: 1 }, /^MOVE_TO: y must be a number, got nothing$/],
      [{ action_type: 'MOVE_TO', x: Number.NaN, y: 1 }, /^MOVE_TO: x must be a number/],
      [{ action_type: 'DRAG_TO', y: 1 }, /^DRAG_TO: x must be a number/],
      [{ action_type: 'SCROLL' }, /^SCROLL: give dx and\/or dy/],
      [{ action_type: 'SCROLL', dy: 1.5 }, /^SCROLL: dy must be an integer/],
      [{ action_type: 'TYPING', text: 5 }, /^TYPING: text must be a string/],
      [{ action_type: 'PRESS', key: 'enterr' }, /^PRESS: key "enterr" is not a pyautogui key name/],
      [{ action_type: 'KEY_DOWN' }, /^KEY_DOWN: key must be a key name \(string\), got nothing$/],
      [{ action_type: 'HOTKEY', keys: 'ctrl+c' }, /^HOTKEY: keys must be a non-empty list/],
      [{ action_type: 'HOTKEY', keys: ['ctrl', 'cc'] }, /^HOTKEY: keys\[1\] "cc" is not a pyautogui key name/],
      [{ action_type: 'JUMP' }, /^Unknown action type: "JUMP"/],
      [{ action_type: 'CLICK', parameters: [1, 2] }, /^CLICK: parameters must be an object/],
      [{ action_type: 7 }, /^action: action_type must be a string/],
      [42, /^action: expected a code string/],
      ['   ', /^action: the code string is empty/],
    ];
    for (const [action, message] of bad) {
      expect(() => toPyautoguiCode(action as Action), JSON.stringify(action)).toThrow(ActionError);
      expect(() => toPyautoguiCode(action as Action)).toThrow(message);
    }
  });
});

describe('code strings', () => {
  it('pass through the `<` fix', () => {
    expect(toPyautoguiCode('pyautogui.click(10, 20)')).toBe('pyautogui.click(10, 20)');
    expect(toPyautoguiCode("pyautogui.press('<')")).toBe(HOTKEY_LT);
    expect(toPyautoguiCode({ command: "pyautogui.typewrite('a<b')" } as unknown as Action))
      .toBe(`pyautogui.typewrite('a'); ${HOTKEY_LT}; pyautogui.typewrite('b')`);
  });
});

describe('fixPyautoguiLessThan (OSWorld _fix_pyautogui_less_than_bug)', () => {
  // Expected values: OSWorld's function run by CPython 3 on the same inputs.
  const cases: Array<[string, string]> = [
    ["pyautogui.press('<')", HOTKEY_LT],
    ['pyautogui.press("<")', HOTKEY_LT],
    ["pyautogui.press('\\u003c')", HOTKEY_LT],
    ["pyautogui.typewrite('a<b')", `pyautogui.typewrite('a'); ${HOTKEY_LT}; pyautogui.typewrite('b')`],
    ["pyautogui.typewrite('<<x<')", `${HOTKEY_LT}; ${HOTKEY_LT}; pyautogui.typewrite('x'); ${HOTKEY_LT}`],
    // the literal is decoded (unicode_escape) and re-embedded unescaped: \n becomes a real newline
    ['pyautogui.typewrite("if a < b:\\n")', `pyautogui.typewrite("if a "); ${HOTKEY_LT}; pyautogui.typewrite(" b:\n")`],
    // non-ASCII text comes out as Latin-1 mojibake, as in OSWorld
    ["pyautogui.typewrite('café <b>')", `pyautogui.typewrite('cafÃ© '); ${HOTKEY_LT}; pyautogui.typewrite('b>')`],
    ["pyautogui.typewrite('no less-than here')", "pyautogui.typewrite('no less-than here')"],
    ["pyautogui.click(10, 20); pyautogui.typewrite('x<y'); pyautogui.press('enter')",
      `pyautogui.click(10, 20); pyautogui.typewrite('x'); ${HOTKEY_LT}; pyautogui.typewrite('y'); pyautogui.press('enter')`],
    ["pyautogui.typewrite('a<b\\\\')", `pyautogui.typewrite('a'); ${HOTKEY_LT}; pyautogui.typewrite('b\\')`],
    ["pyautogui.typewrite('\\x3c')", HOTKEY_LT],
    ["pyautogui.typewrite('a\\qb<')", `pyautogui.typewrite('a\\qb'); ${HOTKEY_LT}`],
    ["pyautogui.write('a<b')", "pyautogui.write('a<b')"],
    ["pyautogui.typewrite('a<b',\n interval=0.1)", "pyautogui.typewrite('a<b',\n interval=0.1)"],
    ["pyautogui.typewrite('\\101<')", `pyautogui.typewrite('A'); ${HOTKEY_LT}`],
  ];
  it.each(cases)('%j', (input, expected) => {
    expect(fixPyautoguiLessThan(input)).toBe(expected);
  });

  it('decodes like Python unicode_escape, failing where Python raises', () => {
    expect(decodeUnicodeEscape('a\\tb\\u00e9\\U0001F600\\\\')).toBe('a\tbé😀\\');
    expect(decodeUnicodeEscape('\\x4')).toBeUndefined();
    expect(decodeUnicodeEscape('end\\')).toBeUndefined();
    expect(decodeUnicodeEscape('é')).toBe('Ã©');
  });
});

describe('pythonStringRepr (Python repr of a str)', () => {
  // Expected values printed by CPython 3.
  it.each([
    ["it's", `"it's"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ['tab\there\nnl\\', `'tab\\there\\nnl\\\\'`],
    ['é ü 中 \x7f \x00 \u200b \u00a0 😀', `'é ü 中 \\x7f \\x00 \\u200b \\xa0 😀'`],
  ])('%j', (text, repr) => {
    expect(pythonStringRepr(text)).toBe(repr);
  });
});

describe('KEYBOARD_KEYS', () => {
  it('holds pyautogui names, checked case-insensitively', () => {
    expect(KEYBOARD_KEYS).toContain('enter');
    expect(KEYBOARD_KEYS).toContain('space');
    expect(KEYBOARD_KEYS).toContain('<');
    expect(isKeyboardKey('Enter')).toBe(true);
    expect(isKeyboardKey('f24')).toBe(true);
    expect(isKeyboardKey('f25')).toBe(false);
    expect(isKeyboardKey('Return')).toBe(true);
    expect(isKeyboardKey('control')).toBe(false);
    expect(new Set(KEYBOARD_KEYS).size).toBe(KEYBOARD_KEYS.length);
  });
});

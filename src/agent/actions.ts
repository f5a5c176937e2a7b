// Action validation and translation: what an agent answers → the pyautogui code the desktop runs.
// Mirrors OSWorld's DesktopEnv.step (special actions, `_fix_pyautogui_less_than_bug`) and
// PythonController.execute_action (computer_13 → pyautogui); see reference.md §4.

import type { Action, SpecialActionType } from './types.ts';
import { isKeyboardKey } from './keyboard-keys.ts';
import { ActionError } from '../errors.ts';
import { decodeUnicodeEscape } from '../python/codecs.ts';
import { pythonStringRepr } from '../python/string-literal.ts';

const SPECIAL_ACTIONS: readonly SpecialActionType[] = ['WAIT', 'FAIL', 'DONE'];

/** The thirteen computer_13 action types (WAIT / FAIL / DONE are the special actions). */
const COMPUTER_13_TYPES = [
  'MOVE_TO', 'CLICK', 'MOUSE_DOWN', 'MOUSE_UP', 'RIGHT_CLICK', 'DOUBLE_CLICK', 'DRAG_TO',
  'SCROLL', 'TYPING', 'PRESS', 'KEY_DOWN', 'KEY_UP', 'HOTKEY',
] as const;

/** The special action an action stands for (the string or `{action_type}`), else undefined. */
export function specialActionType(action: unknown): SpecialActionType | undefined {
  const type = typeof action === 'string' ? action.trim()
    : isRecord(action) && typeof action.action_type === 'string' ? action.action_type : undefined;
  return SPECIAL_ACTIONS.includes(type as SpecialActionType) ? type as SpecialActionType : undefined;
}

/** True for WAIT / FAIL / DONE, given as a string or as `{action_type: ...}`. */
export function isSpecialAction(action: unknown): boolean {
  return specialActionType(action) !== undefined;
}

export interface TranslateOptions {
  /** Source of randomness for MOVE_TO's duration and easing (OSWorld draws them at random). Default Math.random. */
  random?: () => number;
}

/**
 * Translate one action into the Python code the desktop runs (after `import pyautogui; import time`),
 * or the special action it stands for. Throws ActionError for an action that cannot run.
 * - code strings (and OSWorld's `{command: code}`) pass through `fixPyautoguiLessThan`;
 * - computer_13 objects become pyautogui calls as OSWorld's PythonController writes them.
 */
export function toPyautoguiCode(action: Action, options: TranslateOptions = {}): string | SpecialActionType {
  const special = specialActionType(action);
  if (special) return special;
  if (typeof action === 'string') {
    if (action.trim() === '') throw new ActionError('action: the code string is empty');
    return fixPyautoguiLessThan(action);
  }
  const record: unknown = action;
  if (!isRecord(record)) throw new ActionError(`action: expected a code string or an object with action_type, got ${describe(record)}`);
  if (record.action_type === undefined && typeof record.command === 'string') return fixPyautoguiLessThan(record.command);
  if (typeof record.action_type !== 'string') throw new ActionError(`action: action_type must be a string, got ${describe(record.action_type)}`);
  return computer13ToCode(record.action_type, parametersOf(record), options);
}

// OSWorld: `action["parameters"] if "parameters" in action else {every key but action_type}`.
function parametersOf(action: Record<string, unknown>): Record<string, unknown> {
  if ('parameters' in action) {
    if (action.parameters === null || action.parameters === undefined) return {};
    if (!isRecord(action.parameters)) throw new ActionError(`${action.action_type}: parameters must be an object, got ${describe(action.parameters)}`);
    return action.parameters;
  }
  const { action_type: _ignored, ...rest } = action;
  return rest;
}

const EASINGS = ['pyautogui.easeInQuad', 'pyautogui.easeOutQuad', 'pyautogui.easeInOutQuad', 'pyautogui.easeInBounce', 'pyautogui.easeInElastic'];

function computer13ToCode(type: string, p: Record<string, unknown>, options: TranslateOptions): string {
  const random = options.random ?? Math.random;
  switch (type) {
    case 'MOVE_TO': {
      const { x, y } = requiredPoint(type, p);
      // OSWorld moves with a random 0.5–1 s duration and a random easing, to look like a person.
      const duration = Math.round((0.5 + random() * 0.5) * 100) / 100;
      const easing = EASINGS[Math.min(EASINGS.length - 1, Math.floor(random() * EASINGS.length))];
      return `pyautogui.moveTo(${x}, ${y}, ${duration}, ${easing})`;
    }
    case 'CLICK': {
      const args: string[] = [];
      const button = optionalButton(type, p);
      if (button) args.push(`button=${pythonStringRepr(button)}`);
      const point = optionalPoint(type, p);
      if (point) args.push(`x=${point.x}`, `y=${point.y}`);
      if (p.num_clicks !== undefined) args.push(`clicks=${positiveInteger(type, 'num_clicks', p.num_clicks)}`);
      return `pyautogui.click(${args.join(', ')})`;
    }
    case 'MOUSE_DOWN':
    case 'MOUSE_UP': {
      const button = optionalButton(type, p);
      const fn = type === 'MOUSE_DOWN' ? 'mouseDown' : 'mouseUp';
      return `pyautogui.${fn}(${button ? `button=${pythonStringRepr(button)}` : ''})`;
    }
    case 'RIGHT_CLICK':
    case 'DOUBLE_CLICK': {
      const point = optionalPoint(type, p);
      const fn = type === 'RIGHT_CLICK' ? 'rightClick' : 'doubleClick';
      return `pyautogui.${fn}(${point ? `x=${point.x}, y=${point.y}` : ''})`;
    }
    case 'DRAG_TO': {
      const { x, y } = requiredPoint(type, p);
      return `pyautogui.dragTo(${x}, ${y}, duration=1.0, button='left', mouseDownUp=True)`;
    }
    case 'SCROLL': {
      if (p.dx === undefined && p.dy === undefined) throw new ActionError('SCROLL: give dx and/or dy (integers)');
      const calls: string[] = [];
      if (p.dx !== undefined) calls.push(`pyautogui.hscroll(${integer(type, 'dx', p.dx)})`);
      if (p.dy !== undefined) calls.push(`pyautogui.vscroll(${integer(type, 'dy', p.dy)})`);
      return calls.join('; ');
    }
    case 'TYPING': {
      if (typeof p.text !== 'string') throw new ActionError(`TYPING: text must be a string, got ${describe(p.text)}`);
      return typewriteCode(p.text);
    }
    case 'PRESS':
    case 'KEY_DOWN':
    case 'KEY_UP': {
      const key = keyName(type, 'key', p.key);
      if (type === 'PRESS' && key === '<') return LESS_THAN_HOTKEY;
      const fn = type === 'PRESS' ? 'press' : type === 'KEY_DOWN' ? 'keyDown' : 'keyUp';
      return `pyautogui.${fn}(${pythonStringRepr(key)})`;
    }
    case 'HOTKEY': {
      if (!Array.isArray(p.keys) || p.keys.length === 0) throw new ActionError(`HOTKEY: keys must be a non-empty list of key names, got ${describe(p.keys)}`);
      const keys = p.keys.map((key, i) => keyName(type, `keys[${i}]`, key));
      return `pyautogui.hotkey(${keys.map(pythonStringRepr).join(', ')})`;
    }
    default:
      throw new ActionError(`Unknown action type: ${JSON.stringify(type)} (expected one of ${[...COMPUTER_13_TYPES, ...SPECIAL_ACTIONS].join(', ')})`);
  }
}

const LESS_THAN_HOTKEY = 'pyautogui.hotkey("shift", ",")';

/**
 * pyautogui code that types `text`: `pyautogui.typewrite(repr(text))` as OSWorld writes it, except that every `<`
 * becomes `hotkey("shift", ",")` (X11 pyautogui types `>` for `<`). OSWorld does not fix computer_13's TYPING;
 * we split here, on the literal, so no escape gets mangled.
 */
export function typewriteCode(text: string): string {
  if (!text.includes('<')) return `pyautogui.typewrite(${pythonStringRepr(text)})`;
  const calls: string[] = [];
  text.split('<').forEach((part, i) => {
    if (i > 0) calls.push(LESS_THAN_HOTKEY);
    if (part) calls.push(`pyautogui.typewrite(${pythonStringRepr(part)})`);
  });
  return calls.join('; ');
}

// ── validation helpers ─────────────────────────────────────────────────────

function number(type: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new ActionError(`${type}: ${field} must be a number, got ${describe(value)}`);
  return value;
}

function integer(type: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new ActionError(`${type}: ${field} must be an integer, got ${describe(value)}`);
  return value;
}

function positiveInteger(type: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ActionError(`${type}: ${field} must be a positive integer, got ${describe(value)}`);
  return value;
}

function requiredPoint(type: string, p: Record<string, unknown>): { x: number; y: number } {
  return { x: number(type, 'x', p.x), y: number(type, 'y', p.y) };
}

function optionalPoint(type: string, p: Record<string, unknown>): { x: number; y: number } | undefined {
  if (p.x === undefined && p.y === undefined) return undefined;
  if (p.x === undefined || p.y === undefined) throw new ActionError(`${type}: x and y must be given together (got only ${p.x === undefined ? 'y' : 'x'})`);
  return requiredPoint(type, p);
}

function optionalButton(type: string, p: Record<string, unknown>): string | undefined {
  if (p.button === undefined) return undefined;
  if (p.button !== 'left' && p.button !== 'right' && p.button !== 'middle') {
    throw new ActionError(`${type}: button must be "left", "right" or "middle", got ${describe(p.button)}`);
  }
  return p.button;
}

function keyName(type: string, field: string, value: unknown): string {
  if (typeof value !== 'string') throw new ActionError(`${type}: ${field} must be a key name (string), got ${describe(value)}`);
  if (!isKeyboardKey(value)) throw new ActionError(`${type}: ${field} ${JSON.stringify(value)} is not a pyautogui key name (see KEYBOARD_KEYS)`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    const text = JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
  } catch {
    return String(value);
  }
}

// ── OSWorld's `_fix_pyautogui_less_than_bug` ───────────────────────────────

/**
 * OSWorld's `_fix_pyautogui_less_than_bug` (desktop_env.py), rewrite for rewrite: `pyautogui.press('<')` becomes
 * `pyautogui.hotkey("shift", ",")`, and `pyautogui.typewrite('a<b')` becomes
 * `pyautogui.typewrite('a'); pyautogui.hotkey("shift", ","); pyautogui.typewrite('b')`.
 * Its quirks are kept on purpose: a typewrite literal that contains `<` is first decoded with Python's
 * `unicode_escape` (so escapes such as `\n` are re-embedded unescaped, and non-ASCII text turns into Latin-1
 * mojibake), and `.` does not cross a newline. Only a `\N{name}` escape differs: it counts as undecodable here.
 */
export function fixPyautoguiLessThan(command: string): string {
  const pressFixed = command.replace(/pyautogui\.press\(["'](?:<|\\u003c)["']\)/g, LESS_THAN_HOTKEY);
  return pressFixed.replace(/pyautogui\.typewrite\((["'])([^\n]*?)\1\)/g, (match, quote: string, raw: string) => {
    const decoded = decodeUnicodeEscape(raw);
    const content = decoded ?? raw;
    if (!content.includes('<')) return match;
    const parts: string[] = [];
    content.split('<').forEach((part, i) => {
      if (i > 0) parts.push(LESS_THAN_HOTKEY);
      if (part) parts.push(`pyautogui.typewrite(${quote}${part}${quote})`);
    });
    return parts.join('; ');
  });
}

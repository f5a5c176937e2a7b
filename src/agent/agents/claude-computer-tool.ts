// Claude's `computer` tool calls → pyautogui code. Claude names keys the xdotool way ("ctrl+s", "Return",
// "Page_Down"), points in the (possibly downscaled) display it was told about, and expects a tool_result for every
// call; this module only translates one call, the agent keeps the conversation.

import { isKeyboardKey } from '../keyboard-keys.ts';
import { pythonStringRepr } from '../../python/string-literal.ts';
import { typewriteCode } from '../actions.ts';
import type { CoordinateMapper } from './screen-scaling.ts';

/** What one tool call becomes: code to run, or a reply given without touching the desktop. */
export type ToolCallOutcome =
  | { kind: 'code'; code: string; cursor?: { x: number; y: number } }
  | { kind: 'screenshot' }
  | { kind: 'reply'; text: string; isError?: boolean };

const XDOTOOL_TO_PYAUTOGUI: Record<string, string> = {
  return: 'enter', kp_enter: 'enter', enter: 'enter', linefeed: 'enter',
  escape: 'esc', esc: 'esc', backspace: 'backspace', tab: 'tab', iso_left_tab: 'tab', space: 'space',
  delete: 'delete', kp_delete: 'delete', del: 'delete', insert: 'insert', kp_insert: 'insert',
  home: 'home', kp_home: 'home', end: 'end', kp_end: 'end',
  prior: 'pageup', page_up: 'pageup', pageup: 'pageup', kp_prior: 'pageup', kp_page_up: 'pageup',
  next: 'pagedown', page_down: 'pagedown', pagedown: 'pagedown', kp_next: 'pagedown', kp_page_down: 'pagedown',
  up: 'up', down: 'down', left: 'left', right: 'right', kp_up: 'up', kp_down: 'down', kp_left: 'left', kp_right: 'right',
  control: 'ctrl', ctrl: 'ctrl', control_l: 'ctrlleft', control_r: 'ctrlright',
  alt: 'alt', alt_l: 'altleft', alt_r: 'altright', option: 'alt',
  shift: 'shift', shift_l: 'shiftleft', shift_r: 'shiftright',
  super: 'win', super_l: 'winleft', super_r: 'winright', meta: 'win', meta_l: 'winleft', meta_r: 'winright',
  cmd: 'win', command: 'win', win: 'win', windows: 'win', hyper: 'win',
  caps_lock: 'capslock', num_lock: 'numlock', scroll_lock: 'scrolllock', print: 'printscreen', sys_req: 'printscreen',
  pause: 'pause', break: 'pause', menu: 'apps',
  minus: '-', plus: '+', equal: '=', comma: ',', period: '.', slash: '/', backslash: '\\', semicolon: ';',
  apostrophe: "'", quoteright: "'", quotedbl: '"', grave: '`', quoteleft: '`', asciitilde: '~',
  bracketleft: '[', bracketright: ']', braceleft: '{', braceright: '}', parenleft: '(', parenright: ')',
  less: '<', greater: '>', question: '?', exclam: '!', at: '@', numbersign: '#', dollar: '$', percent: '%',
  asciicircum: '^', ampersand: '&', asterisk: '*', underscore: '_', bar: '|', colon: ':',
  kp_add: 'add', kp_subtract: 'subtract', kp_multiply: 'multiply', kp_divide: 'divide', kp_decimal: 'decimal',
  kp_separator: 'separator', kp_equal: '=',
  xf86audioraisevolume: 'volumeup', xf86audiolowervolume: 'volumedown', xf86audiomute: 'volumemute',
  xf86audioplay: 'playpause', xf86audionext: 'nexttrack', xf86audioprev: 'prevtrack', xf86audiostop: 'stop',
};

/** One xdotool key name as pyautogui names it, or undefined when pyautogui has no such key. */
export function xdotoolKeyToPyautogui(name: string, inCombo = false): string | undefined {
  const lower = name.toLowerCase();
  const mapped = XDOTOOL_TO_PYAUTOGUI[lower]
    ?? (/^kp_\d$/.test(lower) ? `num${lower.slice(3)}` : undefined)
    ?? (/^f\d{1,2}$/.test(lower) && isKeyboardKey(lower) ? lower : undefined);
  if (mapped) return mapped;
  // A single character is typed as is ("A" types a capital); inside a combo "ctrl+A" means ctrl+a.
  if ([...name].length === 1) return inCombo ? lower : name;
  return isKeyboardKey(lower) ? lower : undefined;
}

/** "ctrl+shift+t" → ['ctrl', 'shift', 't']; "ctrl++" → ['ctrl', '+']. */
function comboParts(combo: string): string[] {
  if (combo === '+') return ['+'];
  if (combo.endsWith('++')) return [...combo.slice(0, -2).split('+'), '+'];
  return combo.split('+');
}

/** pyautogui names of the keys of one combo, or an error text naming the unknown key. */
function comboKeys(combo: string): string[] | string {
  const parts = comboParts(combo);
  const keys: string[] = [];
  for (const part of parts) {
    const key = xdotoolKeyToPyautogui(part.trim(), parts.length > 1);
    if (!key) return `unknown key name ${JSON.stringify(part)} in ${JSON.stringify(combo)}`;
    keys.push(key);
  }
  return keys;
}

/** pyautogui code pressing an xdotool key sequence ("ctrl+a Delete"), or an error text. */
export function keySequenceCode(text: string): string | { error: string } {
  const combos = text.trim().split(/\s+/).filter(Boolean);
  if (combos.length === 0) return { error: 'key: text is empty' };
  const calls: string[] = [];
  for (const combo of combos) {
    const keys = comboKeys(combo);
    if (typeof keys === 'string') return { error: keys };
    calls.push(keys.length === 1 ? `pyautogui.press(${pythonStringRepr(keys[0])})` : `pyautogui.hotkey(${keys.map(pythonStringRepr).join(', ')})`);
  }
  return calls.join('; ');
}

type Input = Record<string, unknown>;

function point(input: Input, field: string, mapper: CoordinateMapper): { x: number; y: number } | string | undefined {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    return `${field} must be [x, y], got ${JSON.stringify(value)}`;
  }
  return { x: mapper.x(value[0]), y: mapper.y(value[1]) };
}

/** Modifier keys Claude may hold during a click or scroll (`text: "shift"` or "ctrl+shift"). */
function withModifiers(input: Input, code: string): string | { error: string } {
  if (typeof input.text !== 'string' || input.text.trim() === '') return code;
  const keys = comboKeys(input.text.trim());
  if (typeof keys === 'string') return { error: keys };
  const down = keys.map((key) => `pyautogui.keyDown(${pythonStringRepr(key)})`);
  const up = [...keys].reverse().map((key) => `pyautogui.keyUp(${pythonStringRepr(key)})`);
  return [...down, code, ...up].join('; ');
}

const CLICKS: Record<string, string> = {
  left_click: 'click', right_click: 'rightClick', middle_click: 'middleClick', double_click: 'doubleClick', triple_click: 'tripleClick',
};

/**
 * Translate one `computer` tool call. `cursor` is where our own actions last left the pointer (screen pixels),
 * used to answer `cursor_position`.
 */
export function computerToolCall(input: Input, mapper: CoordinateMapper, cursor: { x: number; y: number } | undefined): ToolCallOutcome {
  const action = input.action;
  const error = (text: string): ToolCallOutcome => ({ kind: 'reply', text: `Error: ${text}`, isError: true });
  const code = (result: string | { error: string }, moved?: { x: number; y: number }): ToolCallOutcome =>
    typeof result === 'string' ? { kind: 'code', code: result, cursor: moved } : error(result.error);

  switch (action) {
    case 'screenshot':
      return { kind: 'screenshot' };
    case 'cursor_position': {
      if (!cursor) return { kind: 'reply', text: 'The cursor position is not known yet; take a screenshot to see the pointer.' };
      const shown = mapper.toImage(cursor);
      return { kind: 'reply', text: `X=${shown.x},Y=${shown.y}` };
    }
    case 'key': {
      if (typeof input.text !== 'string') return error('key needs text, e.g. "ctrl+s" or "Return"');
      return code(keySequenceCode(input.text));
    }
    case 'hold_key': {
      if (typeof input.text !== 'string') return error('hold_key needs text (the key)');
      const keys = comboKeys(input.text.trim());
      if (typeof keys === 'string') return error(keys);
      const seconds = typeof input.duration === 'number' && input.duration >= 0 ? Math.min(input.duration, 100) : 1;
      return code([
        ...keys.map((key) => `pyautogui.keyDown(${pythonStringRepr(key)})`),
        `time.sleep(${seconds})`,
        ...[...keys].reverse().map((key) => `pyautogui.keyUp(${pythonStringRepr(key)})`),
      ].join('; '));
    }
    case 'type': {
      if (typeof input.text !== 'string') return error('type needs text');
      return code(typewriteCode(input.text));
    }
    case 'mouse_move': {
      const to = point(input, 'coordinate', mapper);
      if (!to) return error('mouse_move needs coordinate [x, y]');
      if (typeof to === 'string') return error(to);
      return code(`pyautogui.moveTo(${to.x}, ${to.y})`, to);
    }
    case 'left_click':
    case 'right_click':
    case 'middle_click':
    case 'double_click':
    case 'triple_click': {
      const at = point(input, 'coordinate', mapper);
      if (typeof at === 'string') return error(at);
      const call = `pyautogui.${CLICKS[action]}(${at ? `${at.x}, ${at.y}` : ''})`;
      return code(withModifiers(input, call), at);
    }
    case 'left_click_drag': {
      const from = point(input, 'start_coordinate', mapper);
      const to = point(input, 'coordinate', mapper);
      if (typeof from === 'string') return error(from);
      if (typeof to === 'string') return error(to);
      if (!to) return error('left_click_drag needs coordinate [x, y] (and start_coordinate)');
      const start = from ? `pyautogui.moveTo(${from.x}, ${from.y}); ` : '';
      return code(`${start}pyautogui.dragTo(${to.x}, ${to.y}, duration=0.5, button='left')`, to);
    }
    case 'left_mouse_down':
    case 'left_mouse_up': {
      const at = point(input, 'coordinate', mapper);
      if (typeof at === 'string') return error(at);
      const move = at ? `pyautogui.moveTo(${at.x}, ${at.y}); ` : '';
      return code(`${move}pyautogui.${action === 'left_mouse_down' ? 'mouseDown' : 'mouseUp'}(button='left')`, at);
    }
    case 'scroll': {
      const at = point(input, 'coordinate', mapper);
      if (typeof at === 'string') return error(at);
      const direction = input.scroll_direction;
      const amount = input.scroll_amount === undefined ? 3 : input.scroll_amount;
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 0) return error(`scroll_amount must be a non-negative integer, got ${JSON.stringify(amount)}`);
      const call = direction === 'up' ? `pyautogui.vscroll(${amount})`
        : direction === 'down' ? `pyautogui.vscroll(${-amount})`
        : direction === 'right' ? `pyautogui.hscroll(${amount})`
        : direction === 'left' ? `pyautogui.hscroll(${-amount})` : undefined;
      if (!call) return error(`scroll_direction must be up, down, left or right, got ${JSON.stringify(direction)}`);
      const move = at ? `pyautogui.moveTo(${at.x}, ${at.y}); ` : '';
      return code(withModifiers(input, `${move}${call}`), at);
    }
    case 'wait': {
      const seconds = typeof input.duration === 'number' && input.duration >= 0 ? Math.min(input.duration, 100) : 1;
      return code(`time.sleep(${seconds})`);
    }
    default:
      return error(`the action ${JSON.stringify(action)} is not supported here`);
  }
}

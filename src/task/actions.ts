// The actions of OSWorld's formats: what an agent answers, and what a task's scripted `solution` lists.
// pyautogui code strings, computer_13 objects, or the special WAIT / FAIL / DONE.

type MouseButton = 'left' | 'right' | 'middle';
export type SpecialActionType = 'WAIT' | 'FAIL' | 'DONE';

/** OSWorld's computer_13 action space (parameters may also sit under `parameters`). */
export type Computer13Action =
  | { action_type: 'MOVE_TO'; x: number; y: number }
  | { action_type: 'CLICK'; button?: MouseButton; x?: number; y?: number; num_clicks?: number }
  | { action_type: 'MOUSE_DOWN'; button?: MouseButton }
  | { action_type: 'MOUSE_UP'; button?: MouseButton }
  | { action_type: 'RIGHT_CLICK'; x?: number; y?: number }
  | { action_type: 'DOUBLE_CLICK'; x?: number; y?: number }
  | { action_type: 'DRAG_TO'; x: number; y: number }
  | { action_type: 'SCROLL'; dx?: number; dy?: number }
  | { action_type: 'TYPING'; text: string }
  | { action_type: 'PRESS'; key: string }
  | { action_type: 'KEY_DOWN'; key: string }
  | { action_type: 'KEY_UP'; key: string }
  | { action_type: 'HOTKEY'; keys: string[] }
  | { action_type: SpecialActionType };

/** A pyautogui code string ("pyautogui.click(10, 20)"), "WAIT" / "FAIL" / "DONE", or a computer_13 object. */
export type Action = string | Computer13Action | { action_type: string; parameters?: Record<string, unknown> };

// VS Code getter (OSWorld getters/vscode.py). OSWorld first replays ctrl+shift+p, types `vscode_extension_command`
// and presses enter so an extension writes its answer to `path`, then fetches that file. Our desktop image has no
// VS Code, so only the fetch is done here: the file must already exist (written by the agent or a postconfig step).
import type { Getter } from '../registry.ts';
import { getVmFile } from './file.ts';
import { stringKey } from './support.ts';

/** `vscode_config {vscode_extension_command, path, dest}`: `path` fetched into `cacheDir/dest` (no command replay). */
const getVscodeConfig: Getter = (env, config) =>
  getVmFile(env, { path: stringKey('vscode_config', config, 'path'), dest: stringKey('vscode_config', config, 'dest') });

export const vscodeGetters: Record<string, Getter> = { vscode_config: getVscodeConfig };

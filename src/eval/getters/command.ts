// Command getters (OSWorld getters/general.py): a command's stdout or stderr, run in the desktop through /execute.
import { DesktopRequestError } from '../../desktop/client.ts';
import type { EvalEnv, Getter, Options } from '../registry.ts';
import { GetterError } from '../errors.ts';

function command(getter: string, config: Options): string | string[] {
  const value = config.command;
  if (typeof value === 'string' || (Array.isArray(value) && value.every((part) => typeof part === 'string'))) {
    return value as string | string[];
  }
  throw new GetterError(`${getter}: config.command must be a string or a list of strings`);
}

/** Runs the command; null when the server answers with an HTTP error (OSWorld: "non-200 → None"). */
async function execute(env: EvalEnv, getter: string, config: Options) {
  try {
    return await env.desktop.execute(command(getter, config), { shell: Boolean(config.shell) });
  } catch (error) {
    if (error instanceof DesktopRequestError) return null;
    throw error;
  }
}

/** `vm_command_line {command, shell?}`: stdout. */
const getVmCommandLine: Getter = async (env, config) => (await execute(env, 'vm_command_line', config))?.output ?? null;

/** `vm_command_error {command, shell?}`: stderr. */
const getVmCommandError: Getter = async (env, config) => (await execute(env, 'vm_command_error', config))?.error ?? null;

export const commandGetters: Record<string, Getter> = {
  vm_command_line: getVmCommandLine,
  vm_command_error: getVmCommandError,
};

// A deskbench command's arguments: node's parseArgs, with a usage error printed once, the same way for every command.
import { type ParseArgsConfig, parseArgs } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed arguments, or undefined after printing `deskbench <command>: <problem>` and the usage (exit 2). */
export function parseCommandArgs<O extends Options>(command: string, usage: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const });
  } catch (error) {
    console.error(`deskbench ${command}: ${(error as Error).message}\n\n${usage}`);
    return undefined;
  }
}

/** The options of the commands that run tasks on desktops (verify, replay), with their defaults. */
export function desktopRunOptions(defaults: { results: string; timeout: string }) {
  return {
    json: { type: 'boolean', default: false },
    'max-workers': { type: 'string' },
    warm: { type: 'string' },
    results: { type: 'string', default: defaults.results },
    timeout: { type: 'string', default: defaults.timeout },
  } as const;
}

/** Those options as numbers, or the problem with them (for a usage error). */
export function desktopRunValues(values: { 'max-workers'?: string; warm?: string; timeout: string }): { maxWorkers?: number; warm?: number; timeout: number } | string {
  const maxWorkers = values['max-workers'] === undefined ? undefined : Number(values['max-workers']);
  const warm = values.warm === undefined ? undefined : Number(values.warm);
  const timeout = Number(values.timeout);
  if (maxWorkers !== undefined && !(Number.isInteger(maxWorkers) && maxWorkers > 0)) return '--max-workers expects a positive whole number';
  if (warm !== undefined && !(Number.isInteger(warm) && warm >= 0)) return '--warm expects a whole number';
  if (!(timeout > 0)) return '--timeout expects a positive number of seconds';
  return { ...(maxWorkers === undefined ? {} : { maxWorkers }), ...(warm === undefined ? {} : { warm }), timeout };
}

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

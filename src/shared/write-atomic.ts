// Files written so that a reader never sees half of one: the results writer, the reporter and the CLI use it.
import { renameSync, writeFileSync } from 'node:fs';

/** Writes through a temp file and a rename, so a reader never sees half a file. */
export function writeAtomic(path: string, data: Buffer | string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, data);
  renameSync(temp, path);
}

/** One line at the end of a text file (traj.jsonl). */
export function appendLine(path: string, line: string): void {
  writeFileSync(path, `${line}\n`, { flag: 'a' });
}

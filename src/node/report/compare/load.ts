// A run for `deskbench compare` / `deskbench rerun`: a results folder (its report.json, as a run or a merge of shards
// writes it) or a report.json itself, checked for the fields they read. A bad one is a RunReportError naming the file,
// the field and what was expected.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { RunReportError } from '../../../errors.ts';
import type { RunReport } from '../aggregate.ts';

export interface LoadedRun {
  /** The results folder: task folders, screenshots and trajectory pages are found relative to it. */
  dir: string;
  /** The report.json read. */
  file: string;
  report: RunReport;
}

const taskSchema = z.looseObject({
  id: z.string(),
  domain: z.string(),
  tags: z.array(z.string()),
  testState: z.string(),
  state: z.string(),
  score: z.number().nullable(),
  resultDir: z.string().nullable(),
  repeat: z.number().int().positive().optional(),
  taskSha256: z.string().optional(),
  desktop: z.looseObject({ imageId: z.string().optional() }).optional(),
});
const reportSchema = z.looseObject({ generatedAt: z.string(), tasks: z.array(taskSchema) });

/** `path`: a results folder or a report.json. */
export function loadRun(path: string): LoadedRun {
  const given = resolve(path);
  if (!existsSync(given)) throw new RunReportError(`${path}: no such results folder or report file`);
  const file = statSync(given).isDirectory() ? join(given, 'report.json') : given;
  if (!existsSync(file)) {
    const shards = readdirSync(given).filter((name) => /^report-shard-\d+-of-\d+\.json$/.test(name));
    const hint = shards.length
      ? ` It has shard reports (${shards.join(', ')}): merge the shards first with \`npx vitest --merge-reports\` (README: Sharding across CI machines), then compare the merged folder.`
      : ' A run writes it at its end (the deskbench reporter).';
    throw new RunReportError(`${path}: no report.json in this folder.${hint}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RunReportError(`${file}: not JSON (${(error as Error).message}); expected a report.json written by deskbench`);
  }
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('').replace(/^\./, '') || '(the whole file)';
    throw new RunReportError(`${file} at ${field}: ${issue.message}; expected a report.json written by deskbench (report.tasks[], each with id, domain, tags, testState, state, score, resultDir)`);
  }
  return { dir: dirname(file), file, report: parsed.data as unknown as RunReport };
}

/** A short name for a run in tables: its folder's name (the parent's too when it is just "results"). */
export function runName(run: LoadedRun): string {
  const name = basename(run.dir);
  return name === 'results' ? `${basename(dirname(run.dir))}/${name}` : name;
}

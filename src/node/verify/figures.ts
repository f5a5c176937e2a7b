// The README's verify figures, produced from `deskbench verify --json` outputs rather than typed: one line per output,
// with the command, its date, the commit, the image it ran on (build hash and engine id) and the counts. The README
// holds them between two markers; scripts/readme-verify-figures.ts writes them there and a unit test checks that the
// README still says what the committed outputs (docs/verify/*.json) say.
import type { VerificationSummary } from '../../contract/verification.ts';
import { MalformedInputError } from '../../errors.ts';

/** What `deskbench verify --json` prints. */
export type VerifyOutput = VerificationSummary & { command: string[] };

const FIGURES_START = '<!-- verify-figures: written by `npm run readme:verify-figures` from docs/verify/*.json; do not edit by hand -->';
const FIGURES_END = '<!-- /verify-figures -->';

/** The command as typed, without the results folder (a path of that machine, no bearing on the figures). */
function commandOf(command: readonly string[]): string {
  const shown: string[] = [];
  for (let i = 0; i < command.length; i++) {
    if (command[i] === '--results') i++;
    else if (!command[i].startsWith('--results=')) shown.push(command[i]);
  }
  return shown.join(' ');
}

/** `2026-11-27T10:04:31.000Z` → `2026-11-27 10:04 UTC`. */
const utcMinute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** One figure line for one verify output. */
export function figureLine(out: VerifyOutput): string {
  const env = out.environment;
  const where: string[] = [];
  if (env) {
    where.push(utcMinute(env.date));
    if (env.commit) where.push(`commit ${env.commit.slice(0, 7)}${env.dirty ? ' with uncommitted changes' : ''}`);
    const id = env.imageId ? `id ${env.imageId.replace(/^sha256:/, '').slice(0, 12)}` : 'id unknown';
    const tag = env.imageBuildHash ? `\`${env.image.replace(/:[^:/]*$/, '')}:${env.imageBuildHash}\`` : `\`${env.image}\` (no build hash tag)`;
    where.push(`image ${tag}, ${id}`);
    if (env.treeBuildHash && env.treeBuildHash !== env.imageBuildHash) where.push(`**not the image its commit builds (${env.treeBuildHash})**`);
    where.push(`${env.cores} cores`);
  }
  const counts = [
    `${out.tasks} tasks in the paths`,
    `${out.solved} solved`,
    `**${out.verified} verified**`,
    ...(out.repeats > 1 ? [`${out.repeats} runs each`, `${out.flaky.length} flaky`] : []),
    `${out.failures.length} failed runs`,
    `${out.freePasses.length} free passes`,
    `${out.goldOnly.length} gold-only`,
    `${out.errors.length} errors`,
  ];
  const minutes = out.durationSeconds === undefined ? '' : `, in ${(out.durationSeconds / 60).toFixed(1)} min`;
  return `- \`${commandOf(out.command)}\` (${where.join(', ')}): ${counts.join(', ')}${minutes}.`;
}

/** The block between the markers: one line per output, in the order given. */
export function figuresBlock(outputs: readonly VerifyOutput[]): string {
  return [FIGURES_START, ...outputs.map(figureLine), FIGURES_END].join('\n');
}

/** The text with its figures block replaced; throws when the markers are missing. */
export function withFigures(text: string, block: string): string {
  const start = text.indexOf(FIGURES_START);
  const end = text.indexOf(FIGURES_END);
  if (start < 0 || end < start) throw new MalformedInputError(`the figures markers are missing: expected a line ${FIGURES_START} and, below it, ${FIGURES_END}`);
  return `${text.slice(0, start)}${block}${text.slice(end + FIGURES_END.length)}`;
}

/** The figures block the text holds now, or undefined. */
export function currentFigures(text: string): string | undefined {
  const start = text.indexOf(FIGURES_START);
  const end = text.indexOf(FIGURES_END);
  return start < 0 || end < start ? undefined : text.slice(start, end + FIGURES_END.length);
}

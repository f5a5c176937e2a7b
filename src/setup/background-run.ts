// Running a long setup script in the desktop. The protocol's /execute gives up after 120 s, and task init scripts
// (pip installs, service start-ups) can take longer, so the script is started with /setup/launch writing its output
// and exit code to files, and the host polls for the exit code file.
import { randomUUID } from 'node:crypto';
import type { SetupContext } from './registry.ts';
import { sleep } from './parameters.ts';
import { StepFailedError } from './errors.ts';

export interface BackgroundResult {
  returncode: number;
  output: string;
  error: string;
}

export interface BackgroundOptions {
  /** Extra environment variables for the command. */
  env?: Record<string, string>;
  /** Working folder (default: the desktop user's home). */
  cwd?: string;
  /** Run as this user when the control server runs as root (an OSWorld VM's server already runs as `user`). */
  user?: string;
  /** Give up after this long (default 30 minutes). */
  timeoutMs?: number;
  pollMs?: number;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Runs `argv` in the desktop to completion, however long it takes, and returns its exit code, stdout and stderr. */
export async function runInBackground(ctx: SetupContext, argv: string[], options: BackgroundOptions = {}): Promise<BackgroundResult> {
  const dir = `/tmp/deskbench-setup-${randomUUID()}`;
  const env = Object.entries(options.env ?? {}).map(([key, value]) => shellQuote(`${key}=${value}`));
  const asUser = options.user
    ? `if [ "$(id -u)" = 0 ] && [ "$(id -un)" != ${shellQuote(options.user)} ]; then set -- sudo -u ${shellQuote(options.user)} -H "$@"; fi; `
    : '';
  const script = [
    `mkdir -p ${dir}`,
    `cd ${options.cwd ? shellQuote(options.cwd) : '"$HOME"'} || { echo 127 > ${dir}/rc; exit; }`,
    `set -- env ${env.join(' ')} ${argv.map(shellQuote).join(' ')}`,
    `${asUser}"$@" > ${dir}/out 2> ${dir}/err < /dev/null`,
    `echo $? > ${dir}/rc.tmp && mv ${dir}/rc.tmp ${dir}/rc`,
  ].join('\n');
  await ctx.desktop.launch(['bash', '-c', script]);
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  const pollMs = options.pollMs ?? 500;
  for (;;) {
    const rc = await ctx.desktop.readFile(`${dir}/rc`);
    if (rc !== null && rc.toString().trim() !== '') {
      const [output, error] = await Promise.all([ctx.desktop.readFile(`${dir}/out`), ctx.desktop.readFile(`${dir}/err`)]);
      await ctx.desktop.execute(['rm', '-rf', dir]).catch(() => {});
      return { returncode: Number(rc.toString().trim()), output: output?.toString() ?? '', error: error?.toString() ?? '' };
    }
    if (Date.now() > deadline) {
      const error = await ctx.desktop.readFile(`${dir}/err`);
      throw new StepFailedError(
        `${argv.join(' ')} did not finish within ${Math.round((options.timeoutMs ?? 1_800_000) / 1000)} s` +
          (error?.length ? `; its stderr so far: ${error.toString().slice(-500)}` : ''),
      );
    }
    await sleep(pollMs, ctx.signal);
  }
}

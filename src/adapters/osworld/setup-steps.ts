// OSWorld's setup steps (`desktop_env/controllers/setup.py`, `_<type>_setup`), with its parameter names and its
// error behaviour: download, open and execute_with_verification fail the task; launch, window and wallpaper steps only
// log a failed request; execute/command never fail on a command's result, and with `until` poll every 0.3 s.
// Placeholders ({CLIENT_PASSWORD}, {SCREEN_WIDTH}, …) are substituted by the runner before a step sees its parameters.
// Spider2-V shares these handlers for its launch, open, execute, sleep and activate_window steps (its own `open` only
// logs a failure; the shared one fails the task as OSWorld's does, since the task cannot work without its window).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { containedPath } from '../../task/contained-path.ts';
import type { ExecResult } from '../../desktop/client.ts';
import { needs, StepFailedError, StepParameterError } from '../../setup/errors.ts';
import {
  command,
  entry,
  flag,
  list,
  messageOf,
  number,
  optionalString,
  requireString,
  sleep,
  type Parameters,
} from '../../setup/parameters.ts';
import type { SetupContext, SetupStep } from '../../setup/registry.ts';
import { describeValue } from '../../shared/describe-value.ts';

/** How long `open` waits for the file's window (OSWorld's server waits up to 1800 s). */
const OPEN_TIMEOUT_MS = 300_000;
/** `until` polls every 0.3 s; OSWorld stops after 5 failed requests. */
const UNTIL_INTERVAL_MS = 300;
const UNTIL_MAX_FAILURES = 5;
/** OSWorld polls an unmet `until` forever; we stop after this long with an error naming the condition. */
const UNTIL_GIVE_UP_MS = 600_000;

/** Runs a request whose failure OSWorld only logs. */
async function logged(ctx: SetupContext, step: string, request: () => Promise<unknown>): Promise<void> {
  try {
    await request();
  } catch (error) {
    ctx.log(`${step}: request failed (ignored, as OSWorld does): ${messageOf(error)}`);
  }
}

/** `launch {command, shell=false}`: a string with spaces and no shell is split on whitespace first. */
const launch: SetupStep = async (ctx, parameters) => {
  let cmd = command('launch', parameters);
  const shell = flag('launch', parameters, 'shell');
  if (!shell && typeof cmd === 'string' && cmd.trim().split(/\s+/).length > 1) cmd = cmd.trim().split(/\s+/);
  await logged(ctx, 'launch', () => ctx.desktop.launch(cmd, shell));
  await ctx.settleAfterLaunch?.();
};

interface Until {
  returncode?: unknown;
  stdout?: unknown;
  stderr?: unknown;
}

function untilMet(until: Until, result: ExecResult): boolean {
  return (
    ('returncode' in until && result.returncode === until.returncode) ||
    ('stdout' in until && typeof until.stdout === 'string' && result.output.includes(until.stdout)) ||
    ('stderr' in until && typeof until.stderr === 'string' && result.error.includes(until.stderr))
  );
}

async function writeCacheFile(ctx: SetupContext, name: string, text: string, field: string): Promise<void> {
  const path = containedPath(ctx.cacheDir, name, { file: ctx.taskFile, field });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/**
 * `execute` / `command {command, shell=false, stdout="", stderr="", until?}`: stdout/stderr name files in the task's
 * cache folder (read later by the cache_file getter). Without `until` the command runs once and a failed request is
 * only logged; with `until {returncode|stdout|stderr}` it repeats every 0.3 s until one condition holds or 5
 * requests have failed.
 */
const execute: SetupStep = async (ctx, parameters) => {
  const cmd = command('execute', parameters);
  const shell = flag('execute', parameters, 'shell');
  const stdout = optionalString('execute', parameters, 'stdout');
  const stderr = optionalString('execute', parameters, 'stderr');
  const until = untilParameter(parameters);
  const shown = Array.isArray(cmd) ? cmd.join(' ') : cmd;
  const started = Date.now();
  let failures = 0;
  for (;;) {
    let result: ExecResult | undefined;
    try {
      result = await ctx.desktop.execute(cmd, { shell, setup: true });
      if (stdout) await writeCacheFile(ctx, stdout, result.output, 'parameters.stdout');
      if (stderr) await writeCacheFile(ctx, stderr, result.error, 'parameters.stderr');
      ctx.log(`execute: ${shown} → returncode ${result.returncode}${result.error.trim() ? `, stderr: ${result.error.trim().slice(0, 300)}` : ''}`);
    } catch (error) {
      failures++;
      ctx.log(`execute: ${shown} failed (ignored, as OSWorld does): ${messageOf(error)}`);
    }
    if (!until || (result && untilMet(until, result)) || failures >= UNTIL_MAX_FAILURES) return;
    if (Date.now() - started > UNTIL_GIVE_UP_MS) {
      throw new StepFailedError(`${shown}: until ${describeValue(until)} was not met within ${UNTIL_GIVE_UP_MS / 1000} s`);
    }
    await sleep(UNTIL_INTERVAL_MS, ctx.signal);
  }
};

function untilParameter(parameters: Parameters): Until | undefined {
  const until = parameters.until;
  if (until === undefined || until === null) return undefined;
  if (typeof until !== 'object' || Array.isArray(until)) {
    throw new StepParameterError(`execute: parameters.until must be an object {returncode|stdout|stderr} (got ${describeValue(until)})`);
  }
  return Object.keys(until).length ? (until as Until) : undefined;
}

/** `open {path}`: opens the file in its app and waits for its window; fails the task when it cannot. */
const open: SetupStep = async (ctx, parameters) => {
  await ctx.desktop.openFile(requireString('open', parameters, 'path'), OPEN_TIMEOUT_MS);
};

/** `sleep {seconds}`. */
const sleepStep: SetupStep = async (ctx, parameters) => {
  await sleep(number('sleep', parameters, 'seconds') * 1000, ctx.signal);
};

/**
 * `download {files: [{url, path}]}`: the host fetches each URL (download cache, offline files; see downloads.ts), then
 * uploads it to `path` in the desktop. OSWorld only logs a failed upload; we fail the step, since the task would run
 * without its file.
 */
const download: SetupStep = async (ctx, parameters) => {
  for (const [i, raw] of list('download', parameters, 'files').entries()) {
    const file = entry('download', 'files', i, raw);
    const { url, path } = file;
    if (typeof url !== 'string' || !url || typeof path !== 'string' || !path) {
      throw new StepParameterError(`download: parameters.files[${i}] needs a url and a path (got ${describeValue(file)})`);
    }
    const local = await ctx.fetchUrl(url);
    await ctx.desktop.upload(path, await readFile(local));
    ctx.log(`download: ${url} → ${path}`);
  }
};

/** `upload_file {files: [{local_path, path}]}`: files of the task's folder (and only those) sent to the desktop. */
const uploadFile: SetupStep = async (ctx, parameters) => {
  for (const [i, raw] of list('upload_file', parameters, 'files').entries()) {
    const file = entry('upload_file', 'files', i, raw);
    const localPath = containedPath(ctx.taskDir, requireString('upload_file', file, 'local_path'), { file: ctx.taskFile, field: `parameters.files[${i}].local_path` });
    const path = requireString('upload_file', file, 'path');
    const data = await readFile(localPath).catch((error: unknown) => {
      throw new StepFailedError(`upload_file: cannot read ${localPath}: ${messageOf(error)}`);
    });
    await withRetries(ctx, [1000, 2000], () => ctx.desktop.upload(path, data));
  }
};

/** Runs `work`, retrying after each delay in turn (OSWorld's upload_file: 3 tries, 1 s then 2 s apart). */
async function withRetries(ctx: SetupContext, delays: number[], work: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= delays.length) throw error;
      ctx.log(`retrying after: ${messageOf(error)}`);
      await sleep(delays[attempt], ctx.signal);
    }
  }
}

/** `activate_window` / `close_window {window_name, strict=false, by_class=false}`: failures are only logged. */
function windowStep(step: 'activate_window' | 'close_window'): SetupStep {
  return async (ctx, parameters) => {
    const query = {
      window_name: requireString(step, parameters, 'window_name'),
      strict: flag(step, parameters, 'strict'),
      by_class: flag(step, parameters, 'by_class'),
    };
    await logged(ctx, step, () =>
      step === 'activate_window' ? ctx.desktop.activateWindow(query) : ctx.desktop.closeWindow(query),
    );
  };
}

/** `change_wallpaper {path}`: failures are only logged. */
const changeWallpaper: SetupStep = async (ctx, parameters) => {
  const path = requireString('change_wallpaper', parameters, 'path');
  await logged(ctx, 'change_wallpaper', () => ctx.desktop.changeWallpaper(path));
};

/** `execute_with_verification {command, verification, max_wait_time=10, check_interval=1, shell=false}`. */
const executeWithVerification: SetupStep = async (ctx, parameters) => {
  const step = 'execute_with_verification';
  const verification = parameters.verification ?? {};
  if (typeof verification !== 'object' || Array.isArray(verification)) {
    throw new StepParameterError(`${step}: parameters.verification must be an object (got ${describeValue(verification)})`);
  }
  const result = await ctx.desktop.executeWithVerification({
    command: command(step, parameters),
    shell: flag(step, parameters, 'shell'),
    verification: verification as { window_exists?: string; command_success?: string },
    max_wait_time: number(step, parameters, 'max_wait_time', 10),
    check_interval: number(step, parameters, 'check_interval', 1),
  });
  ctx.log(`${step}: ${describeValue(result)}`);
};

export const osworldSteps: Record<string, SetupStep> = {
  launch,
  execute,
  command: execute,
  open,
  sleep: sleepStep,
  download,
  upload_file: uploadFile,
  activate_window: windowStep('activate_window'),
  close_window: windowStep('close_window'),
  change_wallpaper: changeWallpaper,
  execute_with_verification: executeWithVerification,
  // Host-side Google Drive and a Google login: register your own handlers to run these tasks.
  googledrive: needs('a Google account'),
  login: needs('a Google account'),
};

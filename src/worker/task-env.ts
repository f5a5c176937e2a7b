// What a task runs with once its desktop answers, built once: the setup steps (config and postconfig) and the evaluator
// are handed it as it is, since their contexts (SetupContext, EvalEnv) are each a part of it.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DesktopHandle } from '../desktop/providers/provider.ts';
import { settleDesktop } from '../desktop/settle.ts';
import type { EvalEnv } from '../eval/registry.ts';
import { LOCKFILE_NAME, lockAt } from '../files/lockfile.ts';
import { effectiveMirror } from '../files/mirror.ts';
import { createFileResolver } from '../setup/downloads.ts';
import { setupVars } from '../setup/parameters.ts';
import type { SetupContext } from '../setup/registry.ts';
import type { Task } from '../task/types.ts';
import type { RunOptions } from '../contract/run-options.ts';

/** The longest wait after a setup step launches a program (SetupContext.settleAfterLaunch). */
const LAUNCH_SETTLE_MAX_SECONDS = 20;

export interface TaskEnv extends SetupContext, EvalEnv {
  /** The desktop's screen size, as it answered (the agent is told it; {SCREEN_WIDTH} … in vars). */
  screen: { width: number; height: number };
}

export interface TaskEnvOptions extends Pick<RunOptions, 'cacheDir' | 'files' | 'filesLock' | 'filesMirror' | 'settleAfterSetup'> {
  /** The task's results folder: its per-task cache goes in it. */
  resultDir: string;
  signal?: AbortSignal;
  log(message: string): void;
}

/** Asks the desktop its screen size and makes the task's cache folder. */
export async function createTaskEnv(task: Task, desktop: DesktopHandle, options: TaskEnvOptions): Promise<TaskEnv> {
  const screen = await desktop.client.screenSize();
  const cacheDir = join(options.resultDir, 'cache');
  mkdirSync(cacheDir, { recursive: true });
  const downloadCacheDir = resolve(options.cacheDir);
  return {
    desktop: desktop.client,
    cdp: desktop.cdp,
    vlc: desktop.vlc,
    taskDir: task.dir,
    taskFile: task.file,
    cacheDir,
    downloadCacheDir,
    fetchUrl: createFileResolver({
      cacheDir: downloadCacheDir,
      files: options.files,
      lock: lockAt(resolve(options.filesLock ?? LOCKFILE_NAME)),
      mirror: effectiveMirror(options.filesMirror),
      taskDir: task.dir,
      taskFile: task.file,
      signal: options.signal,
      log: options.log,
    }),
    vars: setupVars({ password: 'password', screen }),
    screen,
    signal: options.signal,
    log: options.log,
    settleAfterLaunch: async () => {
      await settleDesktop(desktop.client, { maxSeconds: Math.min(options.settleAfterSetup, LAUNCH_SETTLE_MAX_SECONDS) }, options.signal);
    },
  };
}

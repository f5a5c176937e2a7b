// GUI-OS's two config helpers (`src/benchmark/tasks/configuration.py`, CONFIG_DISPATCH), called with the task's
// `{func, arguments}`. GUI-OS copies files over SFTP and runs the script over SSH; we use the control server's upload
// and a background run, with the same paths, user and environment.
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, posix } from 'node:path';
import { containedPath } from '../../task/contained-path.ts';
import { runInBackground } from '../../setup/background-run.ts';
import { messageOf, optionalString, requireString } from '../../setup/parameters.ts';
import type { SetupContext, SetupStep } from '../../setup/registry.ts';
import { StepFailedError, StepParameterError } from '../../setup/errors.ts';

/** The environment GUI-OS adds to the VM's runtime env for init scripts (they log to $SHARED_DIR/$TASK_SETUP_LOG). */
const SCRIPT_ENV = { TASK_SETUP_LOG: 'task-setup.log' };

/** A file of the task's folder: `local_path` may not lead anywhere else on the host. */
function taskFile(step: string, ctx: SetupContext, localPath: string): string {
  const path = containedPath(ctx.taskDir, localPath, { file: ctx.taskFile, field: 'arguments.local_path' });
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new StepFailedError(`${step}: ${localPath} is not in the task's folder (${path} does not exist)`);
  }
  return path;
}

function absoluteRemote(step: string, remotePath: string): string {
  if (!posix.isAbsolute(remotePath)) throw new StepParameterError(`${step}: remote_path must be an absolute path (got ${remotePath})`);
  return remotePath;
}

/** `upload_file_to_vm {local_path, remote_path}`: a task file to an absolute desktop path; parent folders are created. */
const uploadFileToVm: SetupStep = async (ctx, parameters) => {
  const step = 'upload_file_to_vm';
  const local = taskFile(step, ctx, requireString(step, parameters, 'local_path'));
  const remote = absoluteRemote(step, requireString(step, parameters, 'remote_path'));
  await ctx.desktop.upload(remote, await readFile(local));
  ctx.log(`${step}: ${local} → ${remote}`);
};

/**
 * `upload_script_and_execute {local_path, remote_path="/home/user/Desktop"}`.
 *
 * How `remote_path` is read: since GUI-OS commit b1d696b (2025-06-24) it is a *directory*, and the script lands at
 * `<remote_path>/<script file name>`. Every task writes `remote_path: "/home/user/init.sh"`, so the script runs as
 * `/home/user/init.sh/init.sh` (SFTP creates the folder; our upload does too). We reproduce that path exactly.
 *
 * Then, as GUI-OS does: `chmod +x`, and the script runs as user `user` with TASK_SETUP_LOG=task-setup.log in its
 * environment. Unlike GUI-OS (which only logs them), a non-zero exit code fails the step, naming the script, its
 * exit code and the end of its stderr: a task whose init.sh failed is not set up, and scoring it would mislead.
 */
const uploadScriptAndExecute: SetupStep = async (ctx, parameters) => {
  const step = 'upload_script_and_execute';
  const localPath = requireString(step, parameters, 'local_path');
  const local = taskFile(step, ctx, localPath);
  const folder = absoluteRemote(step, optionalString(step, parameters, 'remote_path', '/home/user/Desktop'));
  const script = posix.join(folder, basename(localPath));
  await ctx.desktop.upload(script, await readFile(local));
  const chmod = await ctx.desktop.execute(['chmod', '+x', script], { setup: true });
  if (chmod.returncode !== 0) throw new StepFailedError(`${step}: chmod +x ${script} failed: ${chmod.error.trim()}`);
  let result;
  try {
    result = await runInBackground(ctx, [script], { env: SCRIPT_ENV, user: 'user' });
  } catch (error) {
    throw new StepFailedError(`${step}: running ${script} failed: ${messageOf(error)}`);
  }
  ctx.log(`${step}: ${script} → returncode ${result.returncode}`);
  const stderr = result.error.trim().slice(-2000);
  if (stderr) ctx.log(`${step}: stderr of ${script}: ${stderr}`);
  if (result.returncode !== 0) {
    throw new StepFailedError(`${step}: ${script} (the task's ${localPath}) exited with code ${result.returncode}${stderr ? `; its stderr ends: ${stderr.slice(-500)}` : ''}`);
  }
};

export const guiosSteps: Record<string, SetupStep> = {
  upload_file_to_vm: uploadFileToVm,
  upload_script_and_execute: uploadScriptAndExecute,
};

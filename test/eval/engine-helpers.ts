// Builds real tasks and evaluation environments for the engine tests: a temporary cache folder, a task folder with
// real files, and URL downloads served from files on disk (the EvalEnv contract's fetchUrl).
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DesktopClient } from '../../src/desktop/client.ts';
import type { EvalEnv } from '../../src/eval/registry.ts';
import type { EvalNode, SetupStepSpec, SourceFormat, Task } from '../../src/task/types.ts';

export function makeTask(root: EvalNode | null, options: { format?: SourceFormat; postconfig?: SetupStepSpec[]; dir?: string } = {}): Task {
  const dir = options.dir ?? tmpdir();
  return {
    id: 'engine-test',
    format: options.format ?? 'osworld',
    file: join(dir, 'task.json'),
    dir,
    domain: 'test',
    platform: 'ubuntu',
    instruction: 'test',
    setup: [],
    evaluator: root ? { postconfig: options.postconfig ?? [], root } : null,
    tags: [],
    relatedApps: [],
    flags: { infeasible: root?.kind === 'infeasible', needsNetwork: false, needsDownload: false, needsAccount: false },
    extra: {},
  };
}

/** An environment whose desktop is unreachable: the getters used with it never touch the desktop. */
export function makeEnv(urls: Record<string, string> = {}, taskDir?: string): EvalEnv {
  const base = mkdtempSync(join(tmpdir(), 'deskbench-eval-'));
  const cacheDir = join(base, 'cache');
  mkdirSync(cacheDir);
  return {
    desktop: new DesktopClient({ url: 'http://127.0.0.1:9', timeoutMs: 1000 }),
    taskDir: taskDir ?? base,
    cacheDir,
    downloadCacheDir: join(base, 'downloads'),
    async fetchUrl(url: string) {
      const file = urls[url];
      if (!file) throw new Error(`no offline copy of ${url}`);
      return file;
    },
  };
}

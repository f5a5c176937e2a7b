// The generated test module of a task file (src/node/plugin/generate.ts) carries no option: its tests' names and tags
// (vitest's `list` reads them without running anything), the extensions to import, and calls into the worker runtime.
import { describe, expect, it } from 'vitest';
import { moduleCacheKey, taskModule } from '../../src/node/plugin/generate.ts';
import type { Task } from '../../src/task/types.ts';

const task = {
  id: 'abc',
  format: 'osworld',
  file: '/corpus/os/abc.json',
  domain: 'os',
  platform: 'ubuntu',
  instruction: 'Open the terminal.\nThen close it.',
  relatedApps: ['terminal'],
  tags: [],
  flags: { infeasible: false, needsNetwork: false, needsDownload: false, needsAccount: false },
} as unknown as Task;

describe('the generated test module', () => {
  it('names each run of the task and its tags literally, and hands the rest to the runtime by the file', () => {
    const code = taskModule(task, 2, ['/p/extensions/marker.ts']);
    expect(code).toContain(`import "/p/extensions/marker.ts";`);
    expect(code).toContain(`const file = "/corpus/os/abc.json";`);
    expect(code).toContain(`test("os/abc: Open the terminal. [run 1/2]", { tags: ["osworld","ubuntu","os","terminal"], ...taskOptions(file, 1) }, (context) => runTask(file, context, importModule, 1));`);
    expect(code).toContain(`test("os/abc: Open the terminal. [run 2/2]"`);
    expect(code.match(/\btest\(/g)).toHaveLength(2);
  });

  it('is the same whatever the options are: nothing but the repeats count shows in it', () => {
    const code = taskModule(task, 1, []);
    for (const option of ['resultsDir', 'maxSteps', 'agent', 'timeout', 'desktop', 'agentOptions', 'solutions']) expect(code).not.toContain(option);
    expect(code).not.toContain('process.env');
  });

  it("has a disk-cache key that changes with what the code holds beyond the task file: repeats and extensions", () => {
    const key = moduleCacheKey(1, []);
    expect(moduleCacheKey(1, [])).toBe(key);
    expect(moduleCacheKey(2, [])).not.toBe(key);
    expect(moduleCacheKey(1, ['/p/extensions/marker.ts'])).not.toBe(key);
  });
});

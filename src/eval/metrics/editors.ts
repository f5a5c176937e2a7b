// Code-editor checks (OSWorld vscode.py): an extension listing, and a Python test suite run against the files the
// agent wrote.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Metric, Options } from '../registry.ts';
import { rulesOf } from './arguments.ts';
import { pythonIn } from '../../python/equality.ts';

/** `{type: contain | not_contain, expected}` against a command's output (e.g. `code --list-extensions`). */
export function isExtensionInstalled(result: unknown, expected: unknown): number {
  const rules = rulesOf(expected, 'is_extension_installed');
  if (rules.type === 'contain') return pythonIn(rules.expected, result) ? 1 : 0;
  if (rules.type === 'not_contain') return pythonIn(rules.expected, result) ? 0 : 1;
  throw new MetricOptionsError(`is_extension_installed: rules.type must be "contain" or "not_contain", got ${JSON.stringify(rules.type)}`);
}

// Loads the test file as a module with its folder as working directory and first on sys.path, calls the test
// function, and maps its return value as OSWorld does (bool → 1/0, a number clamped to [0, 1], else truthiness).
const RUNNER = `
import importlib.util, json, os, sys
path, name = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(path))
spec = importlib.util.spec_from_file_location("deskbench_test_module", path)
module = importlib.util.module_from_spec(spec)
sys.modules["deskbench_test_module"] = module
spec.loader.exec_module(module)
fn = getattr(module, name)
if not callable(fn):
    raise TypeError(name + " is not callable")
r = fn()
if isinstance(r, bool):
    score = 1.0 if r else 0.0
elif isinstance(r, (int, float)):
    score = max(0.0, min(1.0, float(r)))
else:
    score = 1.0 if bool(r) else 0.0
print("\\n__DESKBENCH_SCORE__" + json.dumps(score))
`;
import { MetricOptionsError } from '../errors.ts';

/**
 * check_python_file_by_test_suite(result_files, test_file, test_function_name='test'): imports the task's test file
 * with python3 (OSWorld runs it inside its own Python process; here a python3 subprocess on the host, so python3 must
 * be installed) and returns the test function's score. Any error (missing file, import error, exception) scores 0.
 * Off unless DESKBENCH_ALLOW_HOST_PYTHON=1: it runs task- and agent-supplied code on the host.
 */
export function checkPythonFileByTestSuite(_result: unknown, expected: unknown, options: Options = {}): number {
  // The test file comes from the task and imports the files the agent wrote: running it is running untrusted code on
  // the host (docs/security.md). Only a user who trusts both turns it on.
  if (process.env.DESKBENCH_ALLOW_HOST_PYTHON !== '1') {
    throw new MetricOptionsError(
      'check_python_file_by_test_suite runs the task\'s Python test file, which imports the files the agent wrote, on the host: ' +
        'refused unless DESKBENCH_ALLOW_HOST_PYTHON=1 (only for task files and agents you trust)',
    );
  }
  if (!expected) return 0;
  const testFile = resolve(String(expected));
  if (!existsSync(testFile) || !statSync(testFile).isFile()) return 0;
  const name = String(options.test_function_name ?? 'test');
  const run = spawnSync('python3', ['-c', RUNNER, testFile, name], { cwd: dirname(testFile), encoding: 'utf8', timeout: 600_000 });
  if (run.error) {
    if ((run.error as NodeJS.ErrnoException).code === 'ENOENT') throw new MetricOptionsError('check_python_file_by_test_suite needs python3 on the host');
    return 0;
  }
  const marker = /__DESKBENCH_SCORE__(.+)\s*$/.exec(run.stdout ?? '');
  if (run.status !== 0 || !marker) return 0;
  return Number(JSON.parse(marker[1]));
}

/** An empty stub in OSWorld (`pass`, so it returns None): no task can pass it. Scored 0. */
export function checkPythonFileByGoldFile(): number {
  return 0;
}

export const editorMetrics: Record<string, Metric> = {
  is_extension_installed: isExtensionInstalled,
  check_python_file_by_test_suite: checkPythonFileByTestSuite,
  check_python_file_by_gold_file: checkPythonFileByGoldFile,
};

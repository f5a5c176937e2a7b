import { join } from 'node:path';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { checkPythonFileByGoldFile, checkPythonFileByTestSuite, isExtensionInstalled } from '../../../src/eval/metrics/editors.ts';

const f = (name: string) => join(import.meta.dirname, '../../../fixtures/apps', name);

describe('is_extension_installed', () => {
  test('contain / not_contain on the command output', () => {
    expect(isExtensionInstalled('ms-python.python\nmattn.lisp\n', { type: 'contain', expected: 'mattn.lisp' })).toBe(1);
    expect(isExtensionInstalled('ms-python.python\n', { type: 'contain', expected: 'mattn.lisp' })).toBe(0);
    expect(isExtensionInstalled('ms-python.python\n', { type: 'not_contain', expected: 'mattn.lisp' })).toBe(1);
    expect(() => isExtensionInstalled('x', { type: 'equals', expected: 'x' })).toThrow(/contain/);
  });
});

describe('check_python_file_by_test_suite (runs python3)', () => {
  test('refused unless the user allows task Python on the host (it imports what the agent wrote)', () => {
    vi.stubEnv('DESKBENCH_ALLOW_HOST_PYTHON', '');
    expect(() => checkPythonFileByTestSuite([], f('test_suite.py'), {})).toThrow(/refused unless DESKBENCH_ALLOW_HOST_PYTHON=1/);
    vi.unstubAllEnvs();
  });
  beforeEach(() => {
    vi.stubEnv('DESKBENCH_ALLOW_HOST_PYTHON', '1');
    return () => vi.unstubAllEnvs();
  });
  test('the test function returning True scores 1; the test file folder is the working directory', () => {
    expect(checkPythonFileByTestSuite([], f('test_suite.py'), {})).toBe(1);
  });
  test('a float result is kept (clamped to [0, 1]); an exception or a missing file scores 0', () => {
    expect(checkPythonFileByTestSuite([], f('test_suite.py'), { test_function_name: 'partial' })).toBe(0.25);
    expect(checkPythonFileByTestSuite([], f('test_suite.py'), { test_function_name: 'broken' })).toBe(0);
    expect(checkPythonFileByTestSuite([], f('test_suite.py'), { test_function_name: 'absent' })).toBe(0);
    expect(checkPythonFileByTestSuite([], f('missing.py'), {})).toBe(0);
  });
  test('check_python_file_by_gold_file is an empty stub in OSWorld: 0', () => {
    expect(checkPythonFileByGoldFile()).toBe(0);
  });
});

// Flags and tag names derived from a task's content: what `--tags-filter "!internet && !download"` leaves in.
import { describe, expect, test } from 'vitest';
import { tagName, tagsOf } from '../../src/task/tags.ts';
import { deriveFlags } from '../../src/task/flags.ts';
import type { Evaluator, SetupStepSpec } from '../../src/task/types.ts';
import { existsSync } from 'node:fs';
import { loadTasks } from '../../src/adapters/load.ts';

const execute = (command: unknown): SetupStepSpec => ({ type: 'execute', parameters: { command, shell: typeof command === 'string' } });
const flags = (setup: SetupStepSpec[], extra: { instruction?: string; evaluator?: Evaluator } = {}) =>
  deriveFlags({ setup, evaluator: extra.evaluator ?? null, tags: [], instruction: extra.instruction });

describe('internet', () => {
  test.each([
    ['echo password | sudo -S apt-get install sysstat'],
    ['sudo apt install -y spotify-client'],
    [['pip', 'install', 'requests']],
    ['uv pip install pandas'],
    ['conda install datasets'],
    ['cd ~ && git clone https://example.org/repo.git'],
    ['npm i left-pad'],
    ['snap install spotify'],
  ])('a setup command that installs or clones: %j', (command) => {
    expect(flags([execute(command)]).needsNetwork).toBe(true);
  });

  test('commands that only look alike do not count', () => {
    for (const command of ['ls ~/Desktop', 'pip list', 'git status', 'apt list --installed', 'echo installer']) {
      expect(flags([execute(command)]).needsNetwork, command).toBe(false);
    }
  });

  test('an instruction to install something from a store counts; a local install does not', () => {
    expect(flags([], { instruction: 'I want to install Spotify on my current system.' }).needsNetwork).toBe(true);
    expect(flags([], { instruction: 'Please help me install the extension Python in VS Code.' }).needsNetwork).toBe(true);
    expect(flags([], { instruction: 'Install the extension from a local VSIX file "/home/user/test.vsix".' }).needsNetwork).toBe(false);
    expect(flags([], { instruction: 'Please help me install the extension located in the Desktop directory.' }).needsNetwork).toBe(false);
    expect(flags([], { instruction: 'Install Microsoft Office 97 from the CD in the drive.' }).needsNetwork).toBe(false);
    expect(flags([], { instruction: 'Check whether Python is installed and uninstall it.' }).needsNetwork).toBe(false);
  });

  test('a command getter that installs counts too', () => {
    const evaluator: Evaluator = {
      postconfig: [],
      root: { kind: 'metric', func: 'exact_match', result: { type: 'vm_command_line', command: 'pip install x && x --version' }, options: {} },
    };
    expect(flags([], { evaluator }).needsNetwork).toBe(true);
  });
});

describe('download', () => {
  test('a download step or cloud_file getter with a remote URL; a local file: URL is no download', () => {
    const remote: SetupStepSpec = { type: 'download', parameters: { files: [{ url: 'https://huggingface.co/x/a.docx', path: '/home/user/a.docx' }] } };
    const local: SetupStepSpec = { type: 'download', parameters: { files: [{ url: 'file:inputs/a.docx', path: '/home/user/a.docx' }] } };
    expect(flags([remote]).needsDownload).toBe(true);
    expect(flags([local]).needsDownload).toBe(false);
    const evaluator: Evaluator = {
      postconfig: [],
      root: { kind: 'metric', func: 'compare_docx_files', result: { type: 'vm_file', path: '/a', dest: 'a' }, expected: { type: 'cloud_file', path: 'https://example.org/gold.docx', dest: 'gold.docx' }, options: {} },
    };
    const withGold = flags([], { evaluator });
    expect(withGold.needsDownload).toBe(true);
    expect(withGold.needsNetwork).toBe(false); // a file fetched for the evaluator is not browsing
  });
});

describe('tag names', () => {
  test('case and separators are normalized, and the forbidden characters dropped', () => {
    expect(tagName('OS')).toBe('os');
    expect(tagName('libreoffice-calc')).toBe('libreoffice_calc');
    expect(tagName('LibreOffice Calc')).toBe('libreoffice_calc');
    expect(tagName('vscode')).toBe('vs_code');
    expect(tagName('cli+gui')).toBe('cli+gui');
    expect(tagName('a (b) & c!')).toBe('a_b_c');
  });

  const corpora = '../shared/corpora';
  test.skipIf(!existsSync(corpora))('the real corpora: no two tags differ only by case or separator (skipped without ../shared/corpora)', () => {
    const tags = new Set(loadTasks([corpora]).tasks.flatMap(tagsOf));
    const byKey = new Map<string, string[]>();
    for (const tag of tags) {
      const key = tag.replace(/[_-]/g, '');
      byKey.set(key, [...(byKey.get(key) ?? []), tag]);
    }
    expect([...byKey.values()].filter((names) => names.length > 1)).toEqual([]);
    expect([...tags].filter((tag) => tag !== tag.toLowerCase())).toEqual([]);
  });
});

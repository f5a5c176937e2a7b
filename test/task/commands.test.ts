// The programs a task runs in the desktop (src/task/commands.ts), and the desktop image's table of them
// (src/desktop/provided-commands.ts) against the real corpora.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { LACKS_ON_PURPOSE, PROVIDED_COMMANDS } from '../../src/desktop/provided-commands.ts';
import { taskPrograms } from '../../src/adapters/programs.ts';
import { commandNames, programOf, simpleCommands } from '../../src/task/commands.ts';
import { loadTasks } from '../../src/adapters/load.ts';
import type { Task } from '../../src/task/types.ts';
import { corpusPrograms } from '../desktop/corpus-commands.ts';

const CORPORA = resolve(import.meta.dirname, '../../../shared/corpora');

describe('commandNames: the commands of an argv list or a shell string', () => {
  test('an argv list names its program; without a shell a string is split as shlex does', () => {
    expect(commandNames(['/usr/bin/thunderbird', '-compose'], false)).toEqual(['/usr/bin/thunderbird']);
    expect(commandNames('gimp "/home/user/My Picture.png"', false)).toEqual(['gimp']);
    expect(commandNames(undefined, true)).toEqual([]);
    expect(commandNames(`"/opt/my app/run" --x 'a b'`, false)).toEqual(['/opt/my app/run']);
    expect(commandNames(`bash -c "echo \\"it's\\" | xsel"`, true)).toEqual(['bash', 'echo', 'xsel']);
    // An unclosed quote does not stop the reading.
    expect(commandNames(`zip -r "out.zip`, true)).toEqual(['zip']);
  });

  test('a shell string: pipelines, lists, $(…), backquotes, subshells, bash -c and the runners before a command', () => {
    expect(commandNames('ps aux | grep vlc | awk \'{print $2}\' && echo done; sleep 1 & wait', true)).toEqual(['ps', 'grep', 'awk', 'echo', 'sleep', 'wait']);
    expect(commandNames('echo "$(date +%s) `hostname`" > /tmp/x', true)).toEqual(['date', 'hostname', 'echo']);
    expect(commandNames("bash -c 'gsettings get org.gnome.desktop.interface gtk-theme | jq .'", true)).toEqual(['bash', 'gsettings', 'jq']);
    expect(commandNames('sudo -E timeout 5 nohup env DISPLAY=:0 LANG=C socat tcp-listen:9222,fork tcp:localhost:1337', true)).toEqual(['socat']);
    expect(commandNames('(cd /tmp && unzip a.zip)', true)).toEqual(['cd', 'unzip']);
    expect(commandNames('if [ -f x ]; then code x; fi # then vlc', true)).toEqual(['[', 'code']);
    expect(commandNames('source conda.sh && conda activate jupyter && jupyter lab ~/Desktop', true)).toEqual(['source', 'conda', 'jupyter', 'jupyter-lab']);
    expect(commandNames(['jupyter', '--version'], false)).toEqual(['jupyter']);
  });

  test('redirections, assignments and here-documents are not commands', () => {
    expect(commandNames('exec > >(tee -a "$LOG") 2>&1', true)).toEqual(['tee']);
    expect(commandNames('LOG=/tmp/x.log curl -s localhost &>/dev/null', true)).toEqual(['curl']);
    expect(commandNames('export A B; : "${A:=1}"; grep -q x <<< "$A"', true)).toEqual(['export', ':', 'grep']);
    expect(commandNames("cat <<'EOF' > /tmp/notes\nvlc is not run here\nrm -rf neither\nEOF\nxdg-open /tmp/notes", true)).toEqual(['cat', 'xdg-open']);
    expect(simpleCommands('a "$(b | c)" ; d')).toEqual(['b', 'c', 'a "$X"', 'd']);
  });

  test('programOf: builtins, relative paths and names known only at run time are not programs; absolute paths count by basename', () => {
    expect(['cd', 'source', '[', ':', 'echo', 'export', './setup.sh', 'scripts/run.sh', '~/bin/x', '$PYTHON'].map(programOf)).toEqual(Array(10).fill(undefined));
    expect(['/usr/bin/thunderbird', '/bin/bash', 'vlc'].map(programOf)).toEqual(['thunderbird', 'bash', 'vlc']);
  });
});

/** Writes task files under a fresh examples/<domain>/ folder (a GUI-OS task in its own folder, with its files). */
function loadFixture(files: Record<string, unknown>): Task[] {
  const root = mkdtempSync(join(tmpdir(), 'deskbench-commands-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), typeof content === 'string' ? content : JSON.stringify(content));
  }
  const { tasks, errors } = loadTasks([root]);
  expect(errors).toEqual([]);
  return tasks;
}

describe('taskPrograms: what a loaded task runs in the desktop', () => {
  test('OSWorld: launch, execute and command steps, postconfig, and command getters', () => {
    const [task] = loadFixture({
      'examples/os/t1.json': {
        id: 't1',
        instruction: 'x',
        config: [
          { type: 'launch', parameters: { command: ['/usr/bin/vlc', '--start-paused'] } },
          { type: 'execute', parameters: { command: 'mkdir -p ~/x && ./setup.sh | tee log', shell: true } },
          { type: 'command', parameters: { command: ['python3', '-c', 'import os'] } },
          { type: 'open', parameters: { path: '/home/user/a.txt' } },
        ],
        evaluator: {
          postconfig: [{ type: 'execute', parameters: { command: ['bash', '-c', 'pkill vlc; sleep 1'] } }],
          func: ['exact_match', 'check_include_exclude'],
          result: [{ type: 'vm_command_line', command: 'gsettings get a b | jq .', shell: true }, { type: 'vm_command_error', command: ['bc'] }],
          expected: [{ type: 'rule', rules: { expected: 'x' } }, { type: 'rule', rules: { include: [] } }],
        },
      },
    });
    expect(taskPrograms(task)).toEqual(['bash', 'bc', 'gsettings', 'jq', 'mkdir', 'pkill', 'python3', 'sleep', 'tee', 'vlc']);
  });

  test('Spider2-V: google_chrome_browser runs Chrome and socat, script_and_execute runs bash', () => {
    const [task] = loadFixture({
      'examples/airbyte/t2.json': {
        id: 't2',
        instruction: 'x',
        tags: ['gui'],
        config: [
          { type: 'script_and_execute', parameters: { src: 'evaluation_examples/examples/airbyte/t2/init.sh' } },
          { type: 'google_chrome_browser', parameters: { debugging_port: 1337, listening_port: 9222 } },
        ],
        evaluator: { func: 'infeasible' },
      },
    });
    expect(taskPrograms(task)).toEqual(['bash', 'google-chrome', 'socat']);
  });

  test('GUI-OS: the commands of its init.sh and of its evaluation script; a legacy step GUI-OS skips counts for nothing', () => {
    const [task] = loadFixture({
      'examples/jupyter/t3/t3.json': {
        id: 't3',
        instruction: 'x',
        config: [
          { func: 'upload_script_and_execute', arguments: { local_path: 'init.sh', remote_path: '/home/user/init.sh' } },
          { type: 'upload_script_and_execute', parameters: { src: 'legacy.sh', dest: '/home/user/legacy.sh' } },
        ],
        evaluation: { func: 'check_log', arguments: { eval_script: 'eval.sh', vm_eval_logs: '/home/user/eval.log' } },
      },
      'examples/jupyter/t3/init.sh': '#!/bin/bash\nset -e\nsource "$HOME/.venv/bin/activate"\nuv pip install numpy\nnohup code . notebook.ipynb >> /tmp/code.log 2>&1 &\n',
      'examples/jupyter/t3/eval.sh': '#!/bin/bash\nexec > >(tee -a /home/user/eval.log) 2>&1\nRESPONSE=$(curl -s localhost:1036)\n',
      'examples/jupyter/t3/legacy.sh': 'blender\n',
    });
    expect(taskPrograms(task)).toEqual(['bash', 'code', 'curl', 'tee', 'uv']);
  });
});

describe('the desktop table of programs (src/desktop/provided-commands.ts)', () => {
  test('a program is either provided or lacking on purpose, never both', () => {
    expect(Object.keys(LACKS_ON_PURPOSE).filter((name) => name in PROVIDED_COMMANDS)).toEqual([]);
    for (const name of Object.keys(PROVIDED_COMMANDS)) expect(programOf(name)).toBe(name);
  });

  test("every program deskbench's own examples and fixtures run is in the table (its tests run them)", () => {
    const programs = corpusPrograms(['../../examples', '../../fixtures'].map((folder) => resolve(import.meta.dirname, folder)));
    expect([...programs.keys()]).toContain('ffmpeg');
    expect([...programs.keys()].filter((name) => !(name in PROVIDED_COMMANDS))).toEqual([]);
  });

  test.skipIf(!existsSync(CORPORA))('every program the real corpora (osworld, spider2v, guios) run is in the table or lacking on purpose (skipped without ../shared/corpora)', () => {
    const programs = corpusPrograms(['osworld', 'spider2v', 'guios'].map((corpus) => join(CORPORA, corpus)));
    for (const needed of ['google-chrome', 'code', 'socat', 'gsettings', 'pactl', 'timedatectl', 'bc', 'jq', 'gio', 'uv', 'conda', 'jupyter-lab']) {
      expect([...programs.keys()]).toContain(needed);
    }
    const unknown = [...programs]
      .filter(([name]) => !(name in PROVIDED_COMMANDS) && !(name in LACKS_ON_PURPOSE))
      .map(([name, files]) => `${name} (in ${files.slice(0, 2).join(', ')})`);
    expect(unknown).toEqual([]);
  });
});

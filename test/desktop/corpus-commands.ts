// The commands OSWorld task files run inside the desktop: in setup steps (`execute`, `command`, `launch`), in the
// evaluator's postconfig, and in command getters (`vm_command_line`, `vm_command_error`). A command is given as an
// argv list or as a shell string; for a shell string every simple command is found, including those in pipelines,
// `$(…)`, backquotes, `bash -c '…'` and after `sudo`/`timeout`/`nohup`/`env`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { shlexSplit } from '../../server/shlex.ts';

const COMMAND_KEYS = new Set(['execute', 'command', 'launch', 'vm_command_line', 'vm_command_error']);
// Words that start a shell construct, not a program.
const SHELL_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'export', 'local']);
// Prefixes that run the command after them (with the number of option arguments they take).
const RUNNERS: Record<string, (words: string[]) => string[]> = {
  sudo: (w) => dropOptions(w.slice(1)),
  nohup: (w) => w.slice(1),
  env: (w) => w.slice(1).filter((x) => !x.includes('=')),
  timeout: (w) => dropOptions(w.slice(1)).slice(1),
  exec: (w) => w.slice(1),
};

function dropOptions(words: string[]): string[] {
  let i = 0;
  while (i < words.length && words[i].startsWith('-')) i++;
  return words.slice(i);
}

/** Splits a shell script into its simple commands' texts: at ; & | newlines and into $(…), `…` and (…). */
export function simpleCommands(script: string): string[] {
  const out: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim()) out.push(current.trim());
    current = '';
  };
  let i = 0;
  const nested = (open: number, closer: string): number => {
    // Returns the index after the matching closer; the text between is split on its own.
    let depth = 1;
    let j = open;
    let quote = '';
    for (; j < script.length; j++) {
      const c = script[j];
      if (quote) {
        if (c === quote) quote = '';
        else if (c === '\\' && quote === '"') j++;
      } else if (c === "'" || c === '"') quote = c;
      else if (closer === ')' && c === '(') depth++;
      else if (c === closer && --depth === 0) break;
    }
    out.push(...simpleCommands(script.slice(open, j)));
    return j + 1;
  };
  while (i < script.length) {
    const c = script[i];
    if (c === "'") {
      const end = script.indexOf("'", i + 1);
      const stop = end < 0 ? script.length : end + 1;
      current += script.slice(i, stop);
      i = stop;
    } else if (c === '"') {
      // Inside double quotes only $(…) and `…` run commands; the quoted text stays one word of this command.
      let j = i + 1;
      current += c;
      while (j < script.length && script[j] !== '"') {
        if (script[j] === '\\') {
          current += script.slice(j, j + 2);
          j += 2;
        } else if (script.startsWith('$(', j)) {
          j = nested(j + 2, ')');
          current += 'X';
        } else if (script[j] === '`') {
          j = nested(j + 1, '`');
          current += 'X';
        } else current += script[j++];
      }
      current += '"';
      i = j + 1;
    } else if (c === '\\') {
      current += script.slice(i, i + 2);
      i += 2;
    } else if (script.startsWith('$(', i)) {
      i = nested(i + 2, ')');
      current += 'X';
    } else if (c === '`') {
      i = nested(i + 1, '`');
      current += 'X';
    } else if (c === '(') {
      flush();
      i = nested(i + 1, ')');
    } else if (c === '#' && (i === 0 || /\s/.test(script[i - 1]))) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? script.length : end;
    } else if (';&|\n'.includes(c)) {
      flush();
      i++;
    } else {
      current += c;
      i++;
    }
  }
  flush();
  return out;
}

/** The program names a command runs (argv list or shell string). */
export function commandNames(command: unknown, shell: boolean): string[] {
  if (Array.isArray(command)) return argvNames(command.map(String));
  if (typeof command !== 'string') return [];
  if (!shell) return argvNames(shlexSplit(command));
  return simpleCommands(command).flatMap((text) => {
    let words: string[];
    try {
      words = shlexSplit(text);
    } catch {
      words = text.split(/\s+/);
    }
    return argvNames(words);
  });
}

function argvNames(argv: string[]): string[] {
  let words = argv.filter((w) => w !== '');
  for (;;) {
    while (words.length && (SHELL_WORDS.has(words[0]) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]))) words = words.slice(1);
    const runner = words.length ? RUNNERS[words[0]] : undefined;
    if (!runner) break;
    words = runner(words);
  }
  if (!words.length || words[0] === 'for' || words[0] === 'case') return [];
  const [name] = words;
  // A shell given a script runs that script's commands too.
  if (['bash', 'sh', '/bin/bash', '/bin/sh'].includes(name)) {
    const c = words.indexOf('-c');
    if (c >= 0 && words[c + 1] !== undefined) return [name, ...commandNames(words[c + 1], true)];
  }
  return [name];
}

/** Every command name in an OSWorld task file's setup, postconfig and command getters, with the task ids using it. */
export function osworldCorpusCommands(examplesDir: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (node: unknown, taskId: string): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, taskId);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.type === 'string' && COMMAND_KEYS.has(record.type)) {
      const parameters = (record.parameters ?? record) as Record<string, unknown>;
      for (const name of commandNames(parameters.command, parameters.shell === true)) {
        found.set(name, [...(found.get(name) ?? []), taskId]);
      }
    }
    for (const value of Object.values(record)) visit(value, taskId);
  };
  for (const domain of readdirSync(examplesDir)) {
    for (const file of readdirSync(join(examplesDir, domain)).filter((f) => f.endsWith('.json'))) {
      const task = JSON.parse(readFileSync(join(examplesDir, domain, file), 'utf8')) as Record<string, unknown>;
      visit([task.config, task.evaluator], `${domain}/${file.replace(/\.json$/, '')}`);
    }
  }
  return found;
}

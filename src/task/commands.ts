// The programs a command runs inside the desktop. Which setup steps and getters run commands is each format's rule
// (its adapter's stepCommands and getterCommands; src/adapters/programs.ts puts a task's together). A command is an
// argv list or a shell string; in a shell string every simple command counts, including those in pipelines, `$(…)`,
// backquotes, `bash -c '…'` and after `sudo`/`timeout`/`nohup`/`env`.
// Shell builtins and relative paths (`./setup.sh`: scripts the task brings) are not programs the desktop provides;
// an absolute path counts by its basename (`/usr/bin/thunderbird` is thunderbird).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { containedPath } from './contained-path.ts';
import { shlexSplit } from '../shared/shlex.ts';
import type { Task } from './types.ts';

// Words that start a shell construct, not a program.
const SHELL_WORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}']);

/** bash's builtins and keywords: run by the shell itself, whatever the desktop installs. */
const SHELL_BUILTINS = new Set(
  (': . [ [[ ]] alias bg bind break builtin caller case cd command compgen complete compopt continue declare dirs disown echo ' +
    'enable eval exec exit export false fc fg for function getopts hash help history jobs kill let local logout mapfile popd ' +
    'printf pushd pwd read readarray readonly return select set shift shopt source suspend test time times trap true type ' +
    'typeset ulimit umask unalias unset wait').split(' '),
);

// Prefixes that run the command after them.
const RUNNERS: Record<string, (words: string[]) => string[]> = {
  sudo: (w) => dropOptions(w.slice(1)),
  nohup: (w) => w.slice(1),
  env: (w) => dropOptions(w.slice(1)).filter((x) => !x.includes('=')),
  timeout: (w) => dropOptions(w.slice(1)).slice(1),
  exec: (w) => w.slice(1),
  command: (w) => dropOptions(w.slice(1)),
};

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh']);

function dropOptions(words: string[]): string[] {
  let i = 0;
  while (i < words.length && words[i].startsWith('-')) i++;
  return words.slice(i);
}

/**
 * Splits a shell script into its simple commands' texts: at ; & | newlines and into $(…), `…` and (…); comments and
 * here-document bodies are left out. A command substitution inside a word leaves `$X` in its place.
 */
export function simpleCommands(script: string): string[] {
  const out: string[] = [];
  let current = '';
  /** Here-document delimiters seen on the current line: their bodies start at the next newline. */
  let heredocs: string[] = [];
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
          current += '$X';
        } else if (script[j] === '`') {
          j = nested(j + 1, '`');
          current += '$X';
        } else current += script[j++];
      }
      current += '"';
      i = j + 1;
    } else if (c === '\\') {
      current += script.slice(i, i + 2);
      i += 2;
    } else if (script.startsWith('$(', i)) {
      i = nested(i + 2, ')');
      current += '$X';
    } else if (c === '`') {
      i = nested(i + 1, '`');
      current += '$X';
    } else if (script.startsWith('<<', i) && script[i + 2] !== '<') {
      // A here-document: its delimiter word (quoted or not, after an optional -) ends the body.
      const delimiter = /^<<-?\s*(['"]?)([\w.-]+)\1/.exec(script.slice(i));
      if (delimiter) heredocs.push(delimiter[2]);
      i += delimiter ? delimiter[0].length : 2;
    } else if (c === '(') {
      flush();
      i = nested(i + 1, ')');
    } else if (c === '#' && (i === 0 || /\s/.test(script[i - 1]))) {
      const end = script.indexOf('\n', i);
      i = end < 0 ? script.length : end;
    } else if (c === '\n' && heredocs.length) {
      flush();
      i = skipHeredocBodies(script, i + 1, heredocs);
      heredocs = [];
    } else if (c === '&' && (/[<>]/.test(script[i - 1] ?? '') || script[i + 1] === '>')) {
      // Part of a redirection (2>&1, &>file), not a separator.
      current += c;
      i++;
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

/** The index after the here-document bodies starting at `start`, each ended by a line holding only its delimiter. */
function skipHeredocBodies(script: string, start: number, delimiters: string[]): number {
  let i = start;
  for (const delimiter of delimiters) {
    for (;;) {
      const end = script.indexOf('\n', i);
      const line = script.slice(i, end < 0 ? script.length : end);
      i = end < 0 ? script.length : end + 1;
      if (line.trim() === delimiter || end < 0) break;
    }
  }
  return i;
}

/** The command names a command runs (argv list or shell string), as written: builtins and paths included. */
export function commandNames(command: unknown, shell: boolean): string[] {
  if (Array.isArray(command)) return argvNames(command.map(String));
  if (typeof command !== 'string') return [];
  if (!shell) return argvNames(shlexSplit(command, { lenient: true }));
  return simpleCommands(command).flatMap((text) => argvNames(shlexSplit(text, { lenient: true })));
}

/** A redirection word: `>`, `2>&1`, `>>file`, `<<<`, `&>/dev/null`; alone, the next word is its target. */
const REDIRECTION = /^(\d*|&)(>>?|<<?<?|>&|<&)(.*)$/;

function argvNames(argv: string[]): string[] {
  let words = argv.filter((w) => w !== '');
  for (;;) {
    while (words.length) {
      const redirection = REDIRECTION.exec(words[0]);
      if (redirection) words = words.slice(redirection[3] ? 1 : 2);
      else if (SHELL_WORDS.has(words[0]) || /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(words[0])) words = words.slice(1);
      else break;
    }
    const runner = words.length ? RUNNERS[words[0]] : undefined;
    if (!runner) break;
    words = runner(words);
  }
  if (!words.length || words[0] === 'for' || words[0] === 'case') return [];
  const [name] = words;
  // A shell given a script runs that script's commands too.
  if (SHELLS.has(posix.basename(name))) {
    const c = words.indexOf('-c');
    if (c >= 0 && words[c + 1] !== undefined) return [name, ...commandNames(words[c + 1], true)];
  }
  // `jupyter lab` runs the program jupyter-lab: jupyter's subcommands are programs of their own.
  if (posix.basename(name) === 'jupyter' && /^[a-z][a-z0-9-]*$/.test(words[1] ?? '')) return [name, `jupyter-${words[1]}`];
  return [name];
}

/**
 * The program a command name needs from the desktop, or undefined for a shell builtin, a relative path (a script
 * the task brings), or a name only known when the command runs (`$PYTHON`).
 */
export function programOf(name: string): string | undefined {
  if (SHELL_BUILTINS.has(name) || name.includes('$')) return undefined;
  if (name.startsWith('/')) return posix.basename(name) || undefined;
  if (name.includes('/') || name.startsWith('~')) return undefined;
  return name;
}

/** A command as a task gives it: an argv list or a string, and whether a shell reads it. */
export interface Command {
  command: unknown;
  shell: boolean;
}

/**
 * A shell script of the task's own folder (GUI-OS's init.sh and eval scripts), read as one shell command; nothing
 * when it is not on this machine (the step or getter then fails, naming it) or lies outside the folder.
 */
export function scriptCommand(task: Task, localPath: unknown): Command[] {
  if (typeof localPath !== 'string' || /^https?:/.test(localPath)) return [];
  try {
    const path = containedPath(task.dir, localPath, { file: task.file, field: 'local_path' });
    if (!existsSync(path) || !statSync(path).isFile()) return [];
    return [{ command: readFileSync(path, 'utf8'), shell: true }];
  } catch {
    return [];
  }
}

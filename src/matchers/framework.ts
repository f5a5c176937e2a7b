// The matcher framework: a deskbench matcher is an async check that says whether the received value passes and, if
// not, what differs. `defineMatcher` turns it into a vitest matcher (negation, messages, attachments on the current
// test); `installMatchers` hands a record of them to `expect.extend`. Office formats (office.ts) and any user
// matcher plug in the same way. File matchers also accept the received file as bytes (a Buffer), and treat their
// expected file as a golden file the way toMatchFileSnapshot does: `vitest -u` writes a missing or different golden
// from the received file, and a run that may add snapshots (not CI) writes a missing one.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import { TestRunner, expect } from 'vitest';
import type { MatcherState, TestContext } from 'vitest';
import { MalformedInputError } from '../errors.ts';

/** A file shown with the test result (vitest annotations), e.g. the diff image of a failed image comparison. */
export interface MatcherAttachment {
  /** What the file shows, e.g. "difference (white = changed)". */
  message: string;
  contentType: string;
  body: Uint8Array | string;
}

export interface MatcherVerdict {
  pass: boolean;
  /** What was compared and, on a failure, what differs (numbers, the first differing line, …). */
  message: string;
  actual?: unknown;
  expected?: unknown;
  /** Attached to the current test when the verdict is a failure (as seen by the user: pass !== isNot). */
  attachments?: MatcherAttachment[];
}

export type DeskbenchMatcher<Args extends unknown[] = unknown[]> = (received: unknown, ...args: Args) => Promise<MatcherVerdict>;

type VitestMatcher = (this: MatcherState, received: unknown, ...args: unknown[]) => Promise<{
  pass: boolean;
  message: () => string;
  actual?: unknown;
  expected?: unknown;
}>;

/** The test a matcher runs in: vitest puts it on the matcher context as `task`; the runner knows it otherwise. */
function currentTestContext(state: MatcherState): TestContext | undefined {
  const task = (state as MatcherState & { task?: { context?: TestContext } }).task ?? TestRunner.getCurrentTest();
  return task?.context;
}

export interface MatcherOptions {
  /**
   * The first argument is an expected file (a golden): the received value may be a path or bytes, and snapshot
   * updating (`-u`) writes the golden from it.
   */
  golden?: boolean;
}

/** A received file as a path: a path as is, bytes written to a temporary file with the expected file's extension. */
function receivedFile(received: unknown, expected: string, matcher: string): string {
  if (typeof received === 'string') return received;
  if (received instanceof Uint8Array) {
    const path = join(mkdtempSync(join(tmpdir(), 'deskbench-received-')), `received${extname(expected)}`);
    writeFileSync(path, received);
    return path;
  }
  throw new MalformedInputError(`${matcher}: the received value must be a file path or a Buffer of the file's bytes, got ${received === null ? 'null' : typeof received}`);
}

/** 'all' with -u, 'new' when missing snapshots may be written (not on CI), 'none' otherwise (vitest's rule). */
function snapshotUpdateState(state: MatcherState): 'all' | 'new' | 'none' {
  return (state.snapshotState as unknown as { snapshotUpdateState?: 'all' | 'new' | 'none' } | undefined)?.snapshotUpdateState ?? 'none';
}

function writeGolden(received: string, golden: string): void {
  mkdirSync(dirname(golden), { recursive: true });
  copyFileSync(received, golden);
}

/** Wraps a deskbench check as a vitest matcher named `name`. */
export function defineMatcher<Args extends unknown[]>(name: string, check: DeskbenchMatcher<Args>, options: MatcherOptions = {}): VitestMatcher {
  return async function (this: MatcherState, received: unknown, ...args: unknown[]) {
    const isNot = Boolean(this.isNot);
    const hint = this.utils.matcherHint(`${isNot ? '.not' : ''}.${name}`, 'received', 'expected');
    const golden = options.golden && typeof args[0] === 'string' ? args[0] : undefined;
    if (golden !== undefined) {
      received = receivedFile(received, golden, name);
      const update = snapshotUpdateState(this);
      if (!existsSync(golden)) {
        if (update === 'none' || isNot) {
          return { pass: isNot, message: () => `${hint}\n\nthe expected file ${golden} does not exist: run vitest with -u to write it from the received file` };
        }
        writeGolden(received as string, golden);
        return { pass: !isNot, message: () => `${hint}\n\nwrote the missing expected file ${golden}` };
      }
    }
    let verdict = await check(received, ...(args as Args));
    if (golden !== undefined && !verdict.pass && !isNot && snapshotUpdateState(this) === 'all') {
      writeGolden(received as string, golden);
      verdict = { pass: true, message: `updated ${golden} from the received file (-u)` };
    }
    const failed = verdict.pass === isNot;
    if (failed && verdict.attachments?.length) {
      const context = currentTestContext(this);
      for (const file of verdict.attachments) {
        await context?.annotate(`${name}: ${file.message}`, 'deskbench', { contentType: file.contentType, body: file.body });
      }
    }
    return {
      pass: verdict.pass,
      message: () => `${hint}\n\n${isNot ? `expected not to match, but it did: ${verdict.message}` : verdict.message}`,
      actual: verdict.actual,
      expected: verdict.expected,
    };
  };
}

/** Registers matchers with vitest's global expect. */
export function installMatchers(matchers: Record<string, VitestMatcher>): void {
  expect.extend(matchers);
}

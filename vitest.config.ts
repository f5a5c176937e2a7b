import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { deskbench } from './src/node/plugin/index.ts';
import { DESKTOP_PROJECT_SETUP } from './test/desktop-project.ts';

/**
 * The files that take longest, longest first, in each project: the unit files that run child processes (vitest runs,
 * the deskbench command), and the desktop files that run many tasks or start slow apps. They set the run's tail unless
 * they start first, and on a fresh clone (CI) vitest knows no durations yet and orders files by size (the examples and
 * verify files, the two longest desktop files, would start halfway through). Seconds from CI runs on the 2-core machine.
 */
const SLOW_FILES = [
  'test/cli/check.test.ts',
  'test/plugin/watch.test.ts',
  'test/plugin/first-run.test.ts',
  'test/cli/files.test.ts',
  'test/matchers/golden-files.test.ts',
  'test/cli/rerun.test.ts',
  'test/cli/verify.test.ts',
  'test/server/process.test.ts',
  'test/report/compare.test.ts',
  'test/report/repeats.test.ts',
  'test/examples/examples.desktop.test.ts', // ~300 s: npm run examples, compare and rerun
  'test/solutions/verify.desktop.test.ts', // ~170 s
  'test/desktop/vscode.desktop.test.ts', // ~80 s
  'test/desktop/clipboard.desktop.test.ts',
  'test/runner/lifecycle.desktop.test.ts',
  'test/package/getting-started.desktop.test.ts',
  'test/desktop/fidelity.desktop.test.ts',
  'test/desktop/guios-setup.desktop.test.ts',
  'test/desktop/apps.desktop.test.ts', // ~60 s
].map((file) => `${import.meta.dirname}/${file}`);

/** vitest's order (projects, then durations or sizes), with the slow files first within their project. */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((spec) => spec.project))];
    const rank = (spec: TestSpecification) => {
      const slow = SLOW_FILES.indexOf(spec.moduleId);
      return projects.indexOf(spec.project) * (SLOW_FILES.length + 1) + (slow < 0 ? SLOW_FILES.length : slow);
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// Three projects: `unit` (deskbench's own tests that need no desktop: npm run test:unit), `desktop` (its tests that
// start desktop containers; npm test runs both), and `examples`: the example tasks through the deskbench plugin
// (npm run examples), one generated test per task file.
export default defineConfig({
  test: {
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        // Everything that needs no Docker engine: runs anywhere, in parallel (npm run test:unit).
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/**/*.desktop.test.ts'],
          // The benchmarks live here too (npm run bench); benchmarks/desktop.bench.ts starts containers.
          benchmark: { include: ['benchmarks/**/*.bench.ts'] },
          testTimeout: 60_000,
          hookTimeout: 300_000,
          maxWorkers: 2,
          // The files share their two workers: a fresh worker per file cost as much time as most files' tests take.
          // Tests that change the environment or the clock undo it (vi.unstubAllEnvs, vi.useRealTimers).
          isolate: false,
          env: {
            TESTCONTAINERS_RYUK_DISABLED: 'true',
            // The child processes (vitest runs, the deskbench command) keep the code Node compiled, as scripts/run.sh
            // has them do under npm run test:unit: a plain `vitest run` then spends as little CPU starting them.
            NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? `${import.meta.dirname}/node_modules/.cache/node-compile-cache`,
          },
        },
      },
      {
        // Tests that start desktop containers (file names end in .desktop.test.ts), after the unit files (a group of
        // their own: sequence.groupOrder). Three files at a time: most of a desktop test's time is waiting (a desktop
        // settling, an agent's pause, a child run's evaluation), and with two the cores sat idle 15 % of the run (npm
        // test 580 s with three against 627 s with two, 2026-11-28). No child process of a test may carry the project's
        // run id (test/desktop-project.ts): its end would remove another file's desktop.
        test: {
          name: 'desktop',
          include: ['test/**/*.desktop.test.ts'],
          // One desktop must come up first, or the project stops with the container's log; then its files take their
          // desktops from the project's warm pool. One run id for all its containers (test/desktop-project.ts).
          ...DESKTOP_PROJECT_SETUP,
          testTimeout: 60_000,
          hookTimeout: 300_000,
          maxWorkers: 3,
          // As in the unit project: a worker runs file after file without loading vitest and deskbench's modules again
          // (about a CPU-second a file). Each file takes its own desktops; none leaves state in a shared module.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        // Results go to DESKBENCH_RESULTS when set (test/examples runs this project into a temporary folder).
        // One warm desktop beside the two running ones: on a 2-core machine a fourth GNOME desktop starting would slow
        // the two at work more than it saves.
        plugins: [
          deskbench({ tasks: 'examples', resultsDir: process.env.DESKBENCH_RESULTS ?? 'results', timeout: 600, desktop: { provider: 'docker', warm: 1 } }),
        ],
        test: {
          name: 'examples',
          // Only the task files the plugin adds: without an include of its own, vitest's default would take test/ too.
          include: [],
          // Two desktops at once: vitest's default on a 2-core machine is one worker, which runs the examples one by one.
          maxWorkers: 2,
          // The project holds task files alone: a worker runs task after task without loading deskbench again (about
          // half a CPU-second a task). Each task still gets a fresh desktop, and the agent its reset().
          isolate: false,
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});

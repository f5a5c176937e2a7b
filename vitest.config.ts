import { defineConfig } from 'vitest/config';
import { deskbench } from './src/plugin/index.ts';

// Two projects: `unit` holds deskbench's own tests (npm test); `examples` runs the example tasks through the
// deskbench plugin (npm run examples), one generated test per task file.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          benchmark: { include: ['benchmarks/**/*.bench.ts'] },
          testTimeout: 60_000,
          hookTimeout: 300_000,
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
        },
      },
      {
        // Results go to DESKBENCH_RESULTS when set (test/examples runs this project into a temporary folder).
        plugins: [deskbench({ tasks: 'examples', resultsDir: process.env.DESKBENCH_RESULTS ?? 'results', timeout: 600 })],
        test: {
          name: 'examples',
          // Only the task files the plugin adds: without an include of its own, vitest's default would take test/ too.
          include: [],
          // Two desktops at once: vitest's default on a 2-core machine is one worker, which runs the examples one by one.
          maxWorkers: 2,
          env: { TESTCONTAINERS_RYUK_DISABLED: 'true' },
          testTimeout: 600_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});

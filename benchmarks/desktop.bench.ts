// Desktop container timings: start → server ready (the GNOME shell drawn, its keys grabbed), screenshot latency at 1920×1080, the
// accessibility tree of Chromium and of a Calc window showing a 10,000-row sheet, and the memory of an idle desktop
// (`vitest bench --run benchmarks/desktop.bench.ts`). Prints the median of each, in ms (memory in MB).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { startDesktop, type Desktop } from '../src/desktop/providers/docker/container.ts';

const samples: Record<string, number[]> = {};
async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await run();
  (samples[name] ??= []).push(performance.now() - start);
  return result;
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let chromium: Desktop;
let calc: Desktop;
const stopping: Promise<void>[] = [];

/** Two desktops with Chromium and Calc open, for the screenshot and accessibility tree benchmarks (only theirs). */
async function startAppDesktops(): Promise<void> {
  [chromium, calc] = await Promise.all([startDesktop({ runId: 'bench-desktop' }), startDesktop({ runId: 'bench-desktop' })]);
  await chromium.client.launch(['google-chrome', 'data:text/html,<h1>Benchmark</h1><p>A paragraph</p><a href="#">link</a>']);
  const csv = ['id,name,value', ...Array.from({ length: 10_000 }, (_, i) => `${i},row${i},${i * 3}`)].join('\n');
  await calc.client.upload('/tmp/big.csv', Buffer.from(csv));
  await calc.client.execute(
    'soffice -env:UserInstallation=file:///tmp/lo-convert --headless --convert-to xlsx --outdir /home/user/Documents /tmp/big.csv',
    { shell: true },
  );
  await calc.client.openFile('/home/user/Documents/big.xlsx', 60_000);
  for (let i = 0; i < 60; i++) {
    const [a, b] = await Promise.all([chromium.client.accessibilityTree(), calc.client.accessibilityTree()]);
    if (a.includes('Benchmark') && b.includes('<table-cell')) break;
    await sleep(500);
  }
}

afterAll(async () => {
  await Promise.all([chromium?.stop(), calc?.stop(), ...stopping]);
  const lines = Object.entries(samples).map(([name, xs]) => `  ${name}: median ${median(xs).toFixed(0)} ms (n=${xs.length})`);
  console.log(`\ndesktop medians\n${lines.join('\n')}`);
});

type Run = { iterations: number; warmupIterations: number; time: number; warmupTime: number };
const runs = (iterations: number): Run => ({ iterations, warmupIterations: 1, time: 0, warmupTime: 0 });

describe('desktop', () => {
  test('container start → server ready', { timeout: 300_000 }, async ({ bench }) => {
    await bench('start → ready', async () => {
      const desktop = await timed('start → ready', () => startDesktop({ runId: 'bench-desktop' }));
      stopping.push(desktop.stop());
    }).run(runs(10));
  });

  test('idle desktop memory', { timeout: 600_000 }, async () => {
    // A fresh desktop left alone for 15 s (the shell's start-up work done), as `docker stats` reports its container.
    for (let i = 0; i < 3; i++) {
      const desktop = await startDesktop({ runId: 'bench-desktop' });
      await sleep(15_000);
      const { stdout } = await promisify(execFile)('docker', ['stats', '--no-stream', '--format', '{{.MemUsage}}', desktop.containerId]);
      const [value, unit] = /^([\d.]+)\s*([KMG]i?B)/.exec(stdout.trim())!.slice(1);
      const mb = Number(value) * ({ KiB: 1 / 1024, KB: 1 / 1000, MiB: 1, MB: 1, GiB: 1024, GB: 1000 } as Record<string, number>)[unit];
      (samples['idle memory (MB)'] ??= []).push(mb);
      stopping.push(desktop.stop());
    }
  });
});

// The two app desktops start after the start and memory figures are taken, which see one desktop at a time.
describe('desktop with apps', () => {
  beforeAll(startAppDesktops, 300_000);

  test('screenshot 1920×1080 PNG', { timeout: 300_000 }, async ({ bench }) => {
    await bench('screenshot', async () => {
      await timed('screenshot', () => chromium.client.screenshot());
    }).run(runs(30));
  });

  test('accessibility tree: Chromium', { timeout: 300_000 }, async ({ bench }) => {
    await bench('a11y Chromium', async () => {
      await timed('a11y Chromium', () => chromium.client.accessibilityTree());
    }).run(runs(15));
  });

  test('accessibility tree: Calc, 10,000-row sheet', { timeout: 300_000 }, async ({ bench }) => {
    await bench('a11y Calc', async () => {
      await timed('a11y Calc', () => calc.client.accessibilityTree());
    }).run(runs(10));
  });
});

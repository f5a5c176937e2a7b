// Side by side: each pdf and image metric of ours against the same computation in Python as OSWorld's evaluators do
// it (PyMuPDF, Pillow, scikit-image; benchmarks/osworld_metrics.py), on the same fixtures, in one run. Python runs in
// one persistent process, so interpreter start-up and imports are not timed. Steady state is compared: both sides first
// warm up for a fixed time (V8 moves MuPDF's WebAssembly from its baseline tier to optimised code over about two seconds
// of calls; a count of calls would stop short of that), then time runs until a small budget is spent, in alternating
// rounds; a sample is the mean of a batch of calls lasting about 1 ms. A single cold call of a WebAssembly metric is
// slower than the figure shown: the ratio is of the computation, not of the first call.
// Prints per metric: our median, Python's median, the ratio (ours / Python's) and both scores (they must agree). A plain script, not vitest bench: vitest cannot time a child process's work.
// Run: npm run bench:python [-- <metric name filter>]   (needs python3-fitz python3-skimage python3-pil; python3-pypdf
// optional; BENCH_PYTHON picks the interpreter, BENCH_BUDGET_MS the time per metric and side, default 1000;
// BENCH_WARMUP_MS the warm-up per metric and side, default 3000)
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { cpus } from 'node:os';
import type { Metric } from '../src/eval/registry.ts';
import { imageMetrics } from '../src/eval/metrics/image.ts';
import { pdfMetrics } from '../src/eval/metrics/pdf.ts';

const root = join(import.meta.dirname, '..', 'fixtures');
const pdf = (name: string) => join(root, 'pdf', `${name}.pdf`);
const img = (name: string) => join(root, 'images', name);
const BUDGET_MS = Number(process.env.BENCH_BUDGET_MS ?? 1000);
const MAX_RUNS = 500;
/** Both sides run in alternating rounds, so a burst of load from other processes hits both alike. */
const ROUNDS = 4;
/** Untimed calls before the first round on each side, by time: lets V8 tier MuPDF's WebAssembly and hot JS up. */
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 3000);
/** Untimed calls before each later round: caches the other side's round may have cooled. */
const ROUND_WARMUP_MS = 20;
const BATCH_MS = 1;

interface Case {
  metric: string;
  /** Arguments of both our metric (result, expected, options) and OSWorld's Python function (positional). */
  ours: [unknown, unknown, Record<string, unknown>];
  python: unknown[];
}

const pair = (metric: string, a: unknown, b: unknown): Case => ({ metric, ours: [a, b, {}], python: [a, b] });
const single = (metric: string, a: unknown): Case => ({ metric, ours: [a, undefined, {}], python: [a] });

const cases: Case[] = [
  pair('compare_pdfs', pdf('text-a'), pdf('text-b')),
  pair('compare_pdf_images', pdf('image-scene'), pdf('image-scene-copy')),
  pair('check_pdf_pages', pdf('two-pages'), { relation: 'eq', ref_value: 2 }),
  pair('compare_images', img('resize-big.png'), img('resize-small.png')),
  pair('check_structure_sim', img('scene-copy.png'), img('scene.png')),
  pair('check_structure_sim_resized', img('scene-on-transparent.png'), img('scene.png')),
  pair('check_structure_sim_with_threshold', img('scene-half.png'), img('scene.png')),
  pair('compare_image_list', [img('scene-copy.png')], [img('scene.png')]),
  pair('check_image_size', img('scene-on-transparent.png'), { width: 64, height: 48, ignore_transparent: true }),
  pair('check_image_file_size', img('scene.png'), { max_size: 600000 }),
  pair('check_config_status', img('gimprc'), { key: 'undo-levels', value: '100' }),
  pair('check_brightness_decrease_and_structure_sim', img('scene-dark.png'), img('scene.png')),
  pair('check_saturation_increase_and_structure_sim', img('scene-saturated.png'), img('scene.png')),
  pair('check_contrast_increase_and_structure_sim', img('scene-contrast.png'), img('scene.png')),
  pair('check_image_mirror', img('scene.png'), img('scene-mirror.png')),
  pair('check_green_background', img('green-src.png'), img('green-mask.png')),
  pair('check_palette_and_structure_sim', img('scene-palette.png'), img('scene.png')),
  single('check_triangle_position', img('triangle-centred.png')),
  single('check_textbox_on_leftside', img('textbox-left.png')),
  pair('check_file_exists_and_structure_sim', img('scene-copy.png'), img('scene.png')),
];

const PYTHON_PACKAGES = 'python3-fitz python3-skimage python3-pil';
/** Debian's interpreter, where apt installs those packages (a pyenv or venv python3 first on PATH would not see them). */
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timeOurs(metric: Metric, [result, expected, options]: Case['ours'], warmupMs: number): Promise<{ score: number; samples: number[] }> {
  const warmStart = performance.now();
  do await metric(result, expected, options);
  while (performance.now() - warmStart < warmupMs);
  const samples: number[] = [];
  let score = NaN;
  const started = performance.now();
  const batch = await batchSize(() => metric(result, expected, options));
  while (samples.length < MAX_RUNS / ROUNDS && (samples.length < 5 || performance.now() - started < BUDGET_MS / ROUNDS)) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) score = await metric(result, expected, options);
    samples.push((performance.now() - t0) / batch);
  }
  return { score, samples };
}

/**
 * Calls per timed sample, so that one sample lasts about BATCH_MS: a metric of a few microseconds timed call by call
 * measures the timer, not the metric. The Python side applies the same rule (osworld_metrics.py batch_size).
 */
async function batchSize(call: () => unknown): Promise<number> {
  const t0 = performance.now();
  await call();
  const onceMs = performance.now() - t0;
  return Math.max(1, Math.min(10_000, Math.floor(BATCH_MS / Math.max(onceMs, 1e-6))));
}

/** The persistent Python process: one request line in, one reply line out. */
function startPython() {
  const child = spawn(PYTHON, [join(import.meta.dirname, 'osworld_metrics.py')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async run(metric: string, args: unknown[], warmupMs: number): Promise<{ score?: number; samples_ms?: number[]; error?: string }> {
      child.stdin.write(`${JSON.stringify({ metric, args, budget_ms: BUDGET_MS / ROUNDS, max_runs: MAX_RUNS / ROUNDS, warmup_ms: warmupMs })}\n`);
      const line = await lines.next();
      if (line.done) throw new Error('the Python benchmark process exited early (see its error above)');
      return JSON.parse(line.value);
    },
    close: () => child.stdin.end(),
  };
}

function pythonReady(): boolean {
  const check = spawnSync(PYTHON, ['-c', 'import fitz, skimage, PIL, scipy, numpy'], { encoding: 'utf8' });
  if (check.status === 0) return true;
  console.error(`Python side unavailable (${(check.stderr || check.error?.message || '').trim().split('\n').pop()}).`);
  console.error(`Install its packages: sudo apt-get install -y ${PYTHON_PACKAGES}`);
  return false;
}

async function main(): Promise<void> {
  const all: Record<string, Metric> = { ...pdfMetrics, ...imageMetrics };
  const filter = process.argv[2];
  const selected = filter ? cases.filter((c) => c.metric.includes(filter)) : cases;
  const python = pythonReady() ? startPython() : undefined;
  console.log(`metric vs OSWorld's Python — ${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, node ${process.version}, ${new Date().toISOString()}`);
  console.log(`${'metric'.padEnd(46)}${'ours ms'.padStart(10)}${'python ms'.padStart(11)}${'ratio'.padStart(8)}  scores (ours / python)`);
  try {
    for (const c of selected) {
      const ours: number[] = [];
      const theirs: number[] = [];
      let oursScore = NaN;
      let pythonScore: number | undefined;
      let pythonError: string | undefined;
      for (let round = 0; round < ROUNDS; round++) {
        const warmupMs = round === 0 ? WARMUP_MS : ROUND_WARMUP_MS;
        const run = await timeOurs(all[c.metric], c.ours, warmupMs);
        ours.push(...run.samples);
        oursScore = run.score;
        if (!python || pythonError) continue;
        const reply = await python.run(c.metric, c.python, warmupMs);
        if (reply.error || !reply.samples_ms) pythonError = reply.error ?? 'no samples';
        else {
          theirs.push(...reply.samples_ms);
          pythonScore = reply.score;
        }
      }
      const oursMedian = median(ours);
      const pythonMedian = theirs.length > 0 && !pythonError ? median(theirs) : undefined;
      const pythonCell = (pythonMedian === undefined ? 'n/a' : pythonMedian.toFixed(3)).padStart(11);
      const ratioCell = (pythonMedian === undefined ? 'n/a' : (oursMedian / pythonMedian).toFixed(2)).padStart(8);
      const scores = `${oursScore}${python ? ` / ${pythonError ? `error: ${pythonError}` : pythonScore}` : ''}`;
      console.log(`${c.metric.padEnd(46)}${oursMedian.toFixed(3).padStart(10)}${pythonCell}${ratioCell}  ${scores}`);
    }
  } finally {
    python?.close();
  }
}

await main();

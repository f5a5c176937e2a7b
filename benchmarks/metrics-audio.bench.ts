// compare_audios on song-length audio (`vitest bench --run benchmarks/metrics-audio.bench.ts`; the
// median is printed per case). The inputs are made here, in a temporary folder: a 3-minute synthetic tune as a
// 44.1 kHz stereo 16-bit WAV, the same with faint noise, the same tune at 48 kHz, and a 3-minute MP3 stream made of
// the committed 0.3 s fixture repeated (MPEG frames concatenate).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { compareAudios } from '../src/eval/metrics/audio.ts';

const SECONDS = 180;
const folder = mkdtempSync(join(tmpdir(), 'deskbench-audio-bench-'));

/** A tune of random notes (a fixed seed), four per second, with three harmonics; `noise` adds white noise. */
function tune(rate: number, noise = 0): Int16Array {
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const n = rate * SECONDS;
  const out = new Int16Array(2 * n);
  let phase = 0;
  let f = 440;
  for (let i = 0; i < n; i++) {
    if (i % Math.floor(rate / 4) === 0) f = 440 * 2 ** (Math.floor(random() * 24 - 12) / 12);
    phase += (2 * Math.PI * f) / rate;
    const x = 0.3 * Math.sin(phase) + 0.1 * Math.sin(2 * phase) + 0.05 * Math.sin(3 * phase) + noise * (random() - 0.5);
    out[2 * i] = Math.round(x * 32767);
    out[2 * i + 1] = Math.round(0.8 * x * 32767);
  }
  return out;
}

function writeWav(name: string, rate: number, samples: Int16Array): string {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + samples.byteLength, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(samples.byteLength, 40);
  const path = join(folder, name);
  writeFileSync(path, Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)]));
  return path;
}

const song = writeWav('song.wav', 44100, tune(44100));
const noisy = writeWav('song-noisy.wav', 44100, tune(44100, 0.01));
const song48 = writeWav('song-48k.wav', 48000, tune(48000));
const clip = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'audio', 'melody.mp3'));
const mp3 = join(folder, 'song.mp3');
writeFileSync(mp3, Buffer.concat(Array.from({ length: Math.ceil(SECONDS / 0.3) }, () => clip)));

/** Prints the median, which the bench table leaves out. */
function report(result: { name: string; latency?: { p50?: number } }): void {
  const median = result.latency?.p50;
  if (median !== undefined) console.log(`median ${result.name}: ${median.toFixed(0)} ms`);
}

const cases: Array<[string, string, string]> = [
  ['compare_audios 3 min WAV 44.1 kHz stereo vs the same with noise', song, noisy],
  ['compare_audios 3 min MP3 44.1 kHz vs 3 min WAV 48 kHz', mp3, song48],
];

describe('compare_audios on 3-minute audio', () => {
  for (const [name, a, b] of cases) {
    test(name, { timeout: 300_000 }, async ({ bench }) => {
      report(await bench(name, async () => {
        await compareAudios(a, b);
      }).run({ iterations: 5, warmupIterations: 1, time: 0, warmupTime: 0 }));
    });
  }
});

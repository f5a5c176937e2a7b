import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import JSZip from 'jszip';
import { describe, expect, test } from 'vitest';
import type { CheckReport } from '../../../../src/node/cli/check.ts';
import type { DesktopClient } from '../../../../src/desktop/client.ts';
import { registerBuiltins } from '../../../../src/eval/builtins.ts';
import { evaluate } from '../../../../src/eval/engine.ts';
import { compareAudios } from '../../../../src/eval/metrics/audio.ts';
import { vlcMetrics } from '../../../../src/eval/metrics/vlc.ts';
import { metrics } from '../../../../src/eval/registry.ts';
import { readTaskFile } from '../../../../src/adapters/load.ts';
import { makeEnv } from '../../engine-helpers.ts';

const ROOT = resolve(import.meta.dirname, '..', '..', '..', '..');
const dir = join(ROOT, 'fixtures', 'audio');
const f = (name: string) => join(dir, name);
const expected = JSON.parse(readFileSync(f('expected.json'), 'utf8'));

interface Pair {
  a: string;
  b: string;
  similarity: number;
  similarity_scipy_default?: number;
}

// Tolerances against the numpy/scipy reference (scripts/fixtures/audio.py), by what differs between the two:
//  - 22.05 kHz WAVs, no resampling: the same float64 formulas, summed in another order (1e-12; observed bit-equal);
//  - 44.1 kHz or MP3: the resampler (scipy's direct polyphase filter vs our FFT filter, same specification; the
//    float32 rounding of the result) and the MP3 decoder (another build of libmpg123, ~1e-7 per sample): 1e-5
//    (observed ≤ 3e-7). OSWorld itself resamples with soxr, which we cannot run here; the reference computed with
//    scipy's default resampling filter instead (similarity_scipy_default) differs by up to 1e-4 on these clips,
//    the scale at which the choice of a good resampler matters.
const noResampling = (pair: Pair) => /22k\.wav$/.test(pair.a) && /22k\.wav$/.test(pair.b);

describe('compare_audios', () => {
  test.each((expected.pairs as Pair[]).map((p) => [p.a, p.b, p.similarity, p]))(
    '%s vs %s: %f as the numpy/scipy reference computes it',
    async (a, b, _similarity, pair) => {
      const score = await compareAudios(f(a as string), f(b as string));
      const want = (pair as Pair).similarity;
      expect(Math.abs(score - want)).toBeLessThanOrEqual(noResampling(pair as Pair) ? 1e-12 : 1e-5);
    },
  );

  test('identical audio scores exactly 1; the MP3 of the same audio scores high but below 1; another tune clearly lower', async () => {
    expect(await compareAudios(f('melody-44k-stereo.wav'), f('melody-44k-stereo.wav'))).toBe(1);
    expect(await compareAudios(f('melody.mp3'), f('melody.mp3'))).toBe(1);
    const mp3 = await compareAudios(f('melody-44k-stereo.wav'), f('melody.mp3'));
    expect(mp3).toBeGreaterThan(0.99);
    expect(mp3).toBeLessThan(1);
    const other = await compareAudios(f('melody-22k.wav'), f('other-22k.wav'));
    expect(other).toBeLessThan(0.6);
    expect(await compareAudios(f('melody.mp3'), f('other-22k.wav'))).toBeLessThan(0.6);
  });

  test('OSWorld\'s special cases: a missing path 0; both files bad 1.0; one bad 0.0', async () => {
    expect(await compareAudios(null, f('melody.mp3'))).toBe(0);
    expect(await compareAudios(f('melody.mp3'), '')).toBe(0);
    expect(await compareAudios(f('empty.wav'), f('corrupt.wav'))).toBe(1);
    expect(await compareAudios(f('not-audio.mp3'), f('no-such-file.wav'))).toBe(1);
    expect(await compareAudios(f('empty.wav'), f('melody-22k.wav'))).toBe(0);
    expect(await compareAudios(f('melody.mp3'), f('corrupt.wav'))).toBe(0);
  });

  test('a format we do not decode is an error naming the file and the supported formats, never a score', async () => {
    await expect(compareAudios(f('short.flac'), f('melody.mp3'))).rejects.toThrow(
      /^compare_audios: .*short\.flac is FLAC audio, which is not supported \(only WAV .* and MP3\/MPEG audio\)$/,
    );
    await expect(compareAudios(f('melody.mp3'), f('short.ogg'))).rejects.toThrow('short.ogg is Ogg audio');
    await expect(compareAudios(f('adpcm.wav'), f('empty.wav'))).rejects.toThrow('WAV encoding IMA ADPCM is not supported');
  });

  test('a file argument that is not a path is a caller error', async () => {
    await expect(compareAudios([f('melody.mp3')], f('melody.mp3'))).rejects.toThrow('compare_audios: the first audio file must be a local file path');
  });

  test('registered under its OSWorld name with the VLC metrics (vlc.py)', () => {
    registerBuiltins();
    expect(vlcMetrics.compare_audios).toBe(compareAudios);
    expect(metrics.get('compare_audios')).toBe(compareAudios);
  });
});

describe('the impress task c59742c0 end to end: audio_in_slide then compare_audios', () => {
  // The evaluator of ../shared/corpora/osworld/examples/libreoffice_impress/c59742c0-4323-4b9d-8a02-723c251deaa0.json
  // (its postconfig, which saves the presentation, is left out: there is no desktop here).
  const evaluator = {
    func: 'compare_audios',
    result: { type: 'audio_in_slide', ppt_file_path: '/home/user/Desktop/Mady_and_Mia_Baseball.pptx', slide_index: 0, dest: 'Baseball.mp3' },
    expected: { type: 'vm_file', path: '/home/user/Desktop/Baseball.mp3', dest: 'Baseball_to_be_placed.mp3' },
  };

  /** fixtures/pptx/audio.pptx (which links fixtures/pptx/src/beep.wav) with `audio` embedded instead, as Impress saves it. */
  async function pptxWithEmbeddedAudio(audio: Uint8Array): Promise<Uint8Array> {
    const zip = await JSZip.loadAsync(readFileSync(join(ROOT, 'fixtures', 'pptx', 'audio.pptx')));
    const rels = 'ppt/slides/_rels/slide1.xml.rels';
    const text = (await zip.file(rels)!.async('string')).replace(
      /Target="file:[^"]*beep\.wav" TargetMode="External"/g,
      'Target="../media/media1.mp3"',
    );
    expect(text.match(/Target="\.\.\/media\/media1\.mp3"/g)).toHaveLength(2);
    zip.file(rels, text);
    zip.file('ppt/media/media1.mp3', audio);
    return zip.generateAsync({ type: 'uint8array' });
  }

  async function score(desktopFiles: Record<string, Uint8Array>) {
    const folder = mkdtempSync(join(tmpdir(), 'deskbench-impress-'));
    mkdirSync(join(folder, 'libreoffice_impress'));
    const file = join(folder, 'libreoffice_impress', 'c59742c0-4323-4b9d-8a02-723c251deaa0.json');
    writeFileSync(file, JSON.stringify({ id: 'c59742c0-4323-4b9d-8a02-723c251deaa0', instruction: 'Add the audio to the slide.', config: [], evaluator }));
    const parsed = readTaskFile(file, { explicit: true });
    if (parsed.kind !== 'task') throw new Error(`the task did not load: ${JSON.stringify(parsed)}`);
    const desktop = { readFile: async (path: string) => (desktopFiles[path] ? Buffer.from(desktopFiles[path]) : null) };
    const env = { ...makeEnv(), desktop: desktop as unknown as DesktopClient };
    return evaluate(parsed.task, env, { runSetupSteps: async () => {} });
  }

  const mp3 = new Uint8Array(readFileSync(f('melody.mp3')));

  test('the audio embedded in the slide is the file on the desktop: 1', async () => {
    const outcome = await score({
      '/home/user/Desktop/Mady_and_Mia_Baseball.pptx': await pptxWithEmbeddedAudio(mp3),
      '/home/user/Desktop/Baseball.mp3': mp3,
    });
    expect(outcome.evalError).toBeUndefined();
    expect(outcome.score).toBe(1);
    expect(outcome.details.metrics[0].result?.output).toMatch(/Baseball\.mp3$/);
  });

  test('the same music decoded differently (a WAV where the MP3 was expected): high, below 1; another tune: low', async () => {
    const pptx = await pptxWithEmbeddedAudio(mp3);
    const wav = await score({ '/home/user/Desktop/Mady_and_Mia_Baseball.pptx': pptx, '/home/user/Desktop/Baseball.mp3': readFileSync(f('melody-44k-stereo.wav')) });
    expect(wav.score).toBeGreaterThan(0.99);
    expect(wav.score).toBeLessThan(1);
    const other = await score({ '/home/user/Desktop/Mady_and_Mia_Baseball.pptx': pptx, '/home/user/Desktop/Baseball.mp3': readFileSync(f('other-22k.wav')) });
    expect(other.score).toBeLessThan(0.6);
  });

  test('a linked (not embedded) audio file is fetched from the desktop; no audio on the slide scores 0', async () => {
    const beep = new Uint8Array(readFileSync(join(ROOT, 'fixtures', 'pptx', 'src', 'beep.wav')));
    const linked = await score({
      '/home/user/Desktop/Mady_and_Mia_Baseball.pptx': readFileSync(join(ROOT, 'fixtures', 'pptx', 'audio.pptx')),
      '/work/main/fixtures/pptx/src/beep.wav': beep,
      '/home/user/Desktop/Baseball.mp3': beep,
    });
    expect(linked.score).toBe(1);
    const none = await score({
      '/home/user/Desktop/Mady_and_Mia_Baseball.pptx': readFileSync(join(ROOT, 'fixtures', 'pptx', 'base.pptx')),
      '/home/user/Desktop/Baseball.mp3': mp3,
    });
    expect(none.score).toBe(0);
  });
});

const CORPORA = resolve(ROOT, '../shared/corpora/osworld/examples');

describe('deskbench check', () => {
  test.skipIf(!existsSync(CORPORA))('compare_audios is implemented for the corpus tasks that use it (skipped without ../shared/corpora)', async () => {
    const run = promisify(execFile)(process.execPath, [join(ROOT, 'bin/deskbench.js'), 'check', '--json', ...['libreoffice_impress', 'vlc', 'multi_apps'].map((d) => join(CORPORA, d))], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse((await run.catch((e: { stdout: string }) => e)).stdout) as CheckReport;
    expect(report.errors).toEqual([]);
    expect(Object.keys(report.unsupported.metrics)).not.toContain('compare_audios');
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeAudio, decodeAudioFile, looksLikeMpegAudio } from '../../../../src/eval/formats/audio/decode.ts';
import { UnreadableAudioError, UnsupportedAudioError } from '../../../../src/errors.ts';
import { decodeWav } from '../../../../src/eval/formats/audio/wav.ts';

const dir = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'audio');
const f = (name: string) => join(dir, name);
const expected = JSON.parse(readFileSync(f('expected.json'), 'utf8'));

describe('WAV decoding, as libsndfile reads it (values read through libsndfile by the fixture script)', () => {
  test.each(['pcm8.wav', 'pcm16.wav', 'pcm24.wav', 'pcm32.wav', 'float32.wav', 'float64.wav', 'extensible24.wav'])('%s', (name) => {
    const want = expected.decoded[name] as { sampleRate: number; channels: number[][] };
    const got = decodeWav(readFileSync(f(name)));
    expect(got.sampleRate).toBe(want.sampleRate);
    expect(got.channels).toHaveLength(2);
    // Exactly the same float32 values: the scaling is by powers of two.
    got.channels.forEach((channel, c) => expect(Array.from(channel)).toEqual(want.channels[c]));
  });

  test('8-bit is unsigned around 128; the extremes of 16-bit are ±1 (−32768 → −1)', () => {
    const wav = (tag: number, bits: number, data: number[]) => {
      const bytes = new Uint8Array(44 + data.length);
      const v = new DataView(bytes.buffer);
      bytes.set([...'RIFF'].map((c) => c.charCodeAt(0)), 0);
      v.setUint32(4, 36 + data.length, true);
      bytes.set([...'WAVEfmt '].map((c) => c.charCodeAt(0)), 8);
      v.setUint32(16, 16, true);
      v.setUint16(20, tag, true);
      v.setUint16(22, 1, true);
      v.setUint32(24, 8000, true);
      v.setUint32(28, (8000 * bits) / 8, true);
      v.setUint16(32, bits / 8, true);
      v.setUint16(34, bits, true);
      bytes.set([...'data'].map((c) => c.charCodeAt(0)), 36);
      v.setUint32(40, data.length, true);
      bytes.set(data, 44);
      return bytes;
    };
    expect(Array.from(decodeWav(wav(1, 8, [0, 128, 255])).channels[0])).toEqual([-1, 0, 127 / 128]);
    expect(Array.from(decodeWav(wav(1, 16, [0x00, 0x80, 0xff, 0x7f, 0xff, 0xff])).channels[0])).toEqual([-1, 32767 / 32768, -1 / 32768]);
    // A data chunk claiming more than the file holds: the whole frames present are read (1 of 2 here).
    const truncated = wav(1, 16, [0x00, 0x40, 0x00]);
    expect(Array.from(decodeWav(truncated).channels[0])).toEqual([0.5]);
  });
});

describe('MP3 decoding (libmpg123 in WebAssembly, as libsndfile decodes MP3)', () => {
  test.each(['melody.mp3', 'melody-22k-mono.mp3'])('%s: same rate, channels, length and samples as libsndfile', async (name) => {
    const want = expected.mp3[name] as { sampleRate: number; frames: number; channels: number; head: number[][] };
    const got = await decodeAudioFile(f(name));
    expect(got.sampleRate).toBe(want.sampleRate);
    // The decoder hands a mono stream over duplicated in two channels; it comes out as one.
    expect(got.channels).toHaveLength(want.channels);
    // Gapless trimming of LAME's delay and padding as libsndfile does it (for the 44.1 kHz stereo file the length is
    // exactly the WAV's 13230 frames).
    expect(got.channels[0]).toHaveLength(want.frames);
    // Different builds of the same decoder: float rounding only.
    want.head.forEach((frame, i) => frame.forEach((v, c) => expect(Math.abs(got.channels[c][2000 + i] - v)).toBeLessThan(1e-5)));
  });

  test('MPEG sniffing: an ID3 tag or a valid frame header', () => {
    expect(looksLikeMpegAudio(readFileSync(f('melody.mp3')))).toBe(true);
    expect(looksLikeMpegAudio(Uint8Array.from([0xff, 0xfb, 0x90, 0x64]))).toBe(true); // MPEG-1 layer III, 128 kbit/s
    expect(looksLikeMpegAudio(Uint8Array.from([0xff, 0xf1, 0x50, 0x80]))).toBe(false); // ADTS AAC (layer bits 00)
    expect(looksLikeMpegAudio(Uint8Array.from([0xff, 0xfb, 0xf0, 0x64]))).toBe(false); // bit-rate index 15 is invalid
  });
});

describe('failures: unreadable files versus formats we do not decode', () => {
  test.each([
    ['empty.wav', 0],
    ['corrupt.wav', null],
    ['not-audio.mp3', null],
    ['missing.wav', null],
  ])('%s is unreadable (librosa.load fails or returns nothing)', async (name, frames) => {
    if (frames === 0) {
      // A valid WAV with no frames decodes to empty channels (compare_audios counts it as bad).
      expect((await decodeAudioFile(f(name))).channels[0]).toHaveLength(0);
      return;
    }
    await expect(decodeAudioFile(f(name))).rejects.toThrow(UnreadableAudioError);
  });

  test.each([
    ['short.flac', 'FLAC'],
    ['short.ogg', 'Ogg'],
    ['adpcm.wav', 'IMA ADPCM'],
  ])('%s is a format we do not decode: an error naming the file, the format and what is supported', async (name, format) => {
    const error = await decodeAudioFile(f(name)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedAudioError);
    expect((error as Error).message).toContain(name);
    expect((error as Error).message).toContain(format);
    expect((error as Error).message).toMatch(/only .*(WAV|PCM)/);
  });

  test.each([
    ['an M4A', [0, 0, 0, 0x20, ...'ftypM4A '].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)), 'MP4/M4A'],
    ['an AIFF', [...'FORM\0\0\0\0AIFF'].map((c) => c.charCodeAt(0)), 'AIFF'],
    ['a WebM', [0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0], 'Matroska/WebM'],
    ['an RF64 WAV', [...'RF64\xff\xff\xff\xffWAVE'].map((c) => c.charCodeAt(0)), 'RF64'],
  ])('%s is recognised by its signature and refused', async (_what, bytes, format) => {
    await expect(decodeAudio(Uint8Array.from(bytes as number[]), 'x.bin')).rejects.toThrow(format as string);
  });
});

// librosa.load(path) with its defaults: decoded to float32, averaged to mono (the channel mean), checked finite,
// resampled to 22050 Hz.
import { decodeAudioFile } from './decode.ts';
import { UnreadableAudioError } from '../../../errors.ts';
import { resample } from './resample.ts';

const LIBROSA_SAMPLE_RATE = 22050;

export interface LoadedAudio {
  samples: Float32Array;
  sampleRate: number;
}

/** The mean of the channels in float32, as np.mean(y, axis=0) gives for a float32 array. */
function toMono(channels: Float32Array[]): Float32Array {
  if (channels.length === 1) return channels[0];
  const out = new Float32Array(channels[0].length);
  if (channels.length === 2) {
    // Two float32 values add exactly in float64 (or the smaller is below half a float32 step of the larger), and
    // halving is exact: one rounding to float32 gives numpy's float32 result.
    const [a, b] = channels;
    for (let i = 0; i < out.length; i++) out[i] = (a[i] + b[i]) / 2;
    return out;
  }
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (const channel of channels) sum = Math.fround(sum + channel[i]);
    out[i] = sum / channels.length;
  }
  return out;
}

export async function loadAudio(path: string, sampleRate = LIBROSA_SAMPLE_RATE): Promise<LoadedAudio> {
  const decoded = await decodeAudioFile(path);
  const mono = toMono(decoded.channels);
  // librosa's valid_audio: "Audio buffer is not finite everywhere" (a float WAV holding NaN or ±inf).
  for (let i = 0; i < mono.length; i++) if (!Number.isFinite(mono[i])) throw new UnreadableAudioError(`${path}: the audio is not finite everywhere`);
  return { samples: resample(mono, decoded.sampleRate, sampleRate), sampleRate };
}

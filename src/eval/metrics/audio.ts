// OSWorld's compare_audios (metrics/vlc.py): the similarity of two audio files as exp(−d), where d is the fastdtw
// distance between their normalised MFCC sequences (cosine distance per frame pair) divided by the warp path's length.
//   - either path missing → 0;
//   - a file librosa.load cannot read (missing, empty, corrupt) is "bad": both bad → 1.0, one bad → 0.0;
//   - a real audio format we do not decode throws (an eval_error), since OSWorld would have scored it.
import { filePath } from './arguments.ts';
import { UnreadableAudioError, MalformedInputError } from '../../errors.ts';
import { cosineDistance, fastdtw, type Series } from '../formats/audio/fastdtw.ts';
import { loadAudio, type LoadedAudio } from '../formats/audio/load.ts';
import { mfcc, normalizeCoefficients } from '../formats/audio/mfcc.ts';

/** librosa.load's outcome as OSWorld classifies it: the samples, or null for a file it could not load or an empty one. */
async function loadOrBad(path: string): Promise<LoadedAudio | null> {
  try {
    const audio = await loadAudio(path);
    return audio.samples.length ? audio : null;
  } catch (error) {
    if (error instanceof UnreadableAudioError) return null;
    throw new MalformedInputError(`compare_audios: ${(error as Error).message}`, { cause: error });
  }
}

/** The normalised MFCCs of a loaded signal, one row per frame (mfcc.T). */
function mfccSeries(audio: LoadedAudio): Series {
  const m = normalizeCoefficients(mfcc(audio.samples, { sampleRate: audio.sampleRate }));
  return { length: m.frames, dim: m.width, data: m.data };
}

/** The DTW part: exp(−distance / path length) of two MFCC sequences. */
function mfccSimilarity(a: Series, b: Series): number {
  const { distance, path } = fastdtw(a, b, cosineDistance, 1);
  const normalized = path.length === 0 ? Infinity : distance / path.length;
  return Math.exp(-normalized);
}

/** compare_audios(audio_path_1, audio_path_2) → a float in [0, 1]. */
export async function compareAudios(result: unknown, expected: unknown): Promise<number> {
  const first = filePath(result, 'compare_audios: the first audio file');
  const second = filePath(expected, 'compare_audios: the second audio file');
  if (!first || !second) return 0;
  const [a, b] = await Promise.all([loadOrBad(first), loadOrBad(second)]);
  if (!a && !b) return 1;
  if (!a || !b) return 0;
  return mfccSimilarity(mfccSeries(a), mfccSeries(b));
}

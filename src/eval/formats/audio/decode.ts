// Audio files to float samples, for the formats OSWorld's tasks use: WAV (wav.ts) and MPEG audio (MP3, decoded by
// libmpg123 compiled to WebAssembly — the decoder libsndfile itself uses for MP3, with the same gapless trimming of
// the encoder's delay and padding). The format is recognised from the file's first bytes, not its name.
//
// Two kinds of failure, kept apart on purpose: a file we cannot read (empty, truncated, garbage) raises
// UnreadableAudioError, which compare_audios scores like librosa.load failing; a real audio format we do not decode
// (FLAC, Ogg, MP4/M4A, AIFF, …, or an exotic WAV encoding) raises UnsupportedAudioError, which must not turn into a
// score: librosa would have read it.
import { readFile } from 'node:fs/promises';
import { CorruptWavError, UnreadableAudioError, UnsupportedAudioError, UnsupportedWavError } from '../../../errors.ts';
import { WAV_ENCODINGS, decodeWav, isRiffWave, type DecodedAudio } from './wav.ts';

export type { DecodedAudio } from './wav.ts';

const SUPPORTED_AUDIO = `WAV (${WAV_ENCODINGS}) and MP3/MPEG audio`;

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** Formats recognised by their signature that we do not decode. */
function unsupportedContainer(bytes: Uint8Array): string | null {
  const head = ascii(bytes, 0, 4);
  if (head === 'OggS') return 'Ogg';
  if (head === 'fLaC') return 'FLAC';
  if (head === 'RIFX') return 'big-endian WAV (RIFX)';
  if (head === 'RF64' || head === 'BW64') return 'RF64 WAV';
  if (head === 'riff' && bytes[4] === 0x2e && bytes[5] === 0x91) return 'Wave64';
  if (head === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(bytes, 8, 4))) return 'AIFF';
  if (head === 'caff') return 'CAF';
  if (head === '.snd') return 'Sun AU';
  if (head === 'MAC ') return "Monkey's Audio";
  if (head === 'wvpk') return 'WavPack';
  if (ascii(bytes, 0, 5) === '#!AMR') return 'AMR';
  if (ascii(bytes, 4, 4) === 'ftyp') return 'MP4/M4A';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'Matroska/WebM';
  if (bytes[0] === 0x30 && bytes[1] === 0x26 && bytes[2] === 0xb2 && bytes[3] === 0x75) return 'ASF/WMA';
  // ADTS AAC: a 12-bit sync word with the MPEG "layer" bits 00.
  if (bytes[0] === 0xff && (bytes[1] & 0xf6) === 0xf0) return 'AAC (ADTS)';
  return null;
}

/** An ID3v2 tag, or an MPEG audio frame header (sync, a valid layer, bit rate and sample rate) at the start. */
export function looksLikeMpegAudio(bytes: Uint8Array): boolean {
  if (ascii(bytes, 0, 3) === 'ID3') return true;
  if (bytes.length < 4 || bytes[0] !== 0xff || (bytes[1] & 0xe0) !== 0xe0) return false;
  const version = (bytes[1] >> 3) & 3;
  const layer = (bytes[1] >> 1) & 3;
  const bitrate = bytes[2] >> 4;
  const rate = (bytes[2] >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 15 && rate !== 3;
}

async function decodeMpeg(bytes: Uint8Array): Promise<DecodedAudio> {
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const decoded = decoder.decode(bytes);
    // The decoder always returns two channels (a mono stream is duplicated); one of them is the same signal.
    const length = decoded.samplesDecoded;
    if (!length) throw new UnreadableAudioError('no MPEG audio frame could be decoded');
    const [left, right] = decoded.channelData;
    const mono = left.every((v, i) => v === right[i]);
    return { sampleRate: decoded.sampleRate, channels: mono ? [left] : [left, right] };
  } finally {
    decoder.free();
  }
}

/** Decodes an audio file from its bytes; `name` is for messages and for recognising an MP3 with leading junk. */
export async function decodeAudio(bytes: Uint8Array, name: string): Promise<DecodedAudio> {
  if (!bytes.length) throw new UnreadableAudioError(`${name} is empty`);
  if (isRiffWave(bytes)) {
    try {
      return decodeWav(bytes);
    } catch (error) {
      if (error instanceof UnsupportedWavError) throw new UnsupportedAudioError(`${name}: ${error.message}`);
      if (error instanceof CorruptWavError) throw new UnreadableAudioError(`${name}: ${error.message}`);
      throw error;
    }
  }
  const container = unsupportedContainer(bytes);
  if (container) throw new UnsupportedAudioError(`${name} is ${container} audio, which is not supported (only ${SUPPORTED_AUDIO})`);
  if (looksLikeMpegAudio(bytes) || /\.mp[123a]$|\.mpga$/i.test(name)) return decodeMpeg(bytes);
  throw new UnreadableAudioError(`${name} is not a recognisable audio file`);
}

/** Reads and decodes an audio file; a file that cannot be read at all is an UnreadableAudioError. */
export async function decodeAudioFile(path: string): Promise<DecodedAudio> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    throw new UnreadableAudioError(`cannot read ${path}: ${(error as Error).message}`);
  }
  return decodeAudio(bytes, path);
}

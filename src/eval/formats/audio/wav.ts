// RIFF WAVE decoding to float samples as libsndfile reads them (what soundfile, and so librosa.load, uses): integer
// PCM of 8 (unsigned), 16, 24 or 32 bits divided by 2^(bits−1), IEEE float of 32 or 64 bits as stored, also inside
// WAVE_FORMAT_EXTENSIBLE. Like libsndfile it reads chunks in order, skips unknown ones, and takes the whole frames
// present when the data chunk claims more bytes than the file has.

import { CorruptWavError, UnsupportedWavError } from '../../../errors.ts';

export interface DecodedAudio {
  sampleRate: number;
  /** One array per channel. */
  channels: Float32Array[];
}

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

const FORMAT_NAMES: Record<number, string> = {
  0x0002: 'MS ADPCM',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0031: 'GSM 6.10',
  0x0050: 'MPEG',
  0x0055: 'MPEG layer 3',
};

export const WAV_ENCODINGS = 'integer PCM (8/16/24/32-bit) or IEEE float (32/64-bit)';

function fourcc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

export function isRiffWave(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && fourcc(bytes, 0) === 'RIFF' && fourcc(bytes, 8) === 'WAVE';
}

interface Format {
  tag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bitsPerSample: number;
}

function readFormat(view: DataView, at: number, size: number): Format {
  if (size < 16) throw new CorruptWavError(`fmt chunk of ${size} bytes (at least 16 expected)`);
  let tag = view.getUint16(at, true);
  const format = {
    tag,
    channels: view.getUint16(at + 2, true),
    sampleRate: view.getUint32(at + 4, true),
    blockAlign: view.getUint16(at + 12, true),
    bitsPerSample: view.getUint16(at + 14, true),
  };
  if (tag === WAVE_FORMAT_EXTENSIBLE) {
    // cbSize, wValidBitsPerSample, dwChannelMask, then the sub-format GUID whose first two bytes are the format tag.
    if (size < 40) throw new CorruptWavError(`WAVE_FORMAT_EXTENSIBLE fmt chunk of ${size} bytes (40 expected)`);
    tag = view.getUint16(at + 24, true);
    format.tag = tag;
  }
  return format;
}

/** Decodes a RIFF WAVE file; throws UnsupportedWavError or CorruptWavError. */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  if (!isRiffWave(bytes)) throw new CorruptWavError('not a RIFF WAVE file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: Format | null = null;
  let data: { at: number; size: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length && !data; ) {
    const id = fourcc(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (body + Math.min(size, 40) > bytes.length) throw new CorruptWavError('truncated fmt chunk');
      format = readFormat(view, body, size);
    } else if (id === 'data') {
      data = { at: body, size: Math.min(size, bytes.length - body) };
    }
    at = body + size + (size & 1);
  }
  if (!format) throw new CorruptWavError('no fmt chunk before the data');
  if (!data) throw new CorruptWavError('no data chunk');
  const { tag, channels, sampleRate, bitsPerSample } = format;
  if (tag !== WAVE_FORMAT_PCM && tag !== WAVE_FORMAT_IEEE_FLOAT) {
    const name = FORMAT_NAMES[tag] ?? `format tag 0x${tag.toString(16).padStart(4, '0')}`;
    throw new UnsupportedWavError(`WAV encoding ${name} is not supported (only ${WAV_ENCODINGS})`);
  }
  if (!channels) throw new CorruptWavError('the fmt chunk declares 0 channels');
  if (!sampleRate) throw new CorruptWavError('the fmt chunk declares a sample rate of 0');
  // The container width: libsndfile goes by the block alignment (bytes per frame), e.g. 20-bit samples in 3 bytes.
  const width = format.blockAlign && format.blockAlign % channels === 0 ? format.blockAlign / channels : Math.ceil(bitsPerSample / 8);
  const kind = tag === WAVE_FORMAT_IEEE_FLOAT ? 'float' : 'int';
  if (!(kind === 'int' ? [1, 2, 3, 4] : [4, 8]).includes(width)) {
    throw new UnsupportedWavError(`WAV ${kind === 'int' ? 'integer PCM' : 'float'} of ${width * 8} bits is not supported (only ${WAV_ENCODINGS})`);
  }
  const frames = Math.floor(data.size / (width * channels));
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  if (kind === 'int' && width === 2) {
    // The common case, without a call per sample.
    for (let c = 0; c < channels; c++) {
      const channel = out[c];
      for (let f = 0, at = data.at + 2 * c, stride = 2 * channels; f < frames; f++, at += stride) channel[f] = view.getInt16(at, true) / 32768;
    }
    return { sampleRate, channels: out };
  }
  const read = sampleReader(view, kind, width);
  for (let f = 0, at = data.at; f < frames; f++) {
    for (let c = 0; c < channels; c++, at += width) out[c][f] = read(at);
  }
  return { sampleRate, channels: out };
}

function sampleReader(view: DataView, kind: 'int' | 'float', width: number): (at: number) => number {
  if (kind === 'float') return width === 4 ? (at) => view.getFloat32(at, true) : (at) => view.getFloat64(at, true);
  switch (width) {
    case 1:
      return (at) => (view.getUint8(at) - 128) / 128;
    case 2:
      return (at) => view.getInt16(at, true) / 32768;
    case 3:
      return (at) => ((view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608);
    default:
      return (at) => view.getInt32(at, true) / 2147483648;
  }
}

// The tar format (POSIX ustar, with pax headers for names longer than 100 bytes), as much of it as a pack of regular
// files needs: written as a stream of buffers, read from one. Node has no tar of its own, and a dependency for 150
// lines was not worth it. GNU tar, bsdtar and Python's tarfile read what this writes.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { PackError } from './errors.ts';

const BLOCK = 512;

export interface TarFile {
  /** Path inside the archive (forward slashes). */
  name: string;
  size: number;
  /** Modification time, seconds since the epoch. */
  mtime: number;
  /** The file's bytes, exactly `size` of them. */
  body(): AsyncIterable<Buffer>;
}

/** The archive of `files`, block by block. */
export async function* tarStream(files: Iterable<TarFile> | AsyncIterable<TarFile>): AsyncGenerator<Buffer> {
  for await (const file of files) {
    const pax: string[] = [];
    if (Buffer.byteLength(file.name) > 100 || !/^[\x20-\x7e]*$/.test(file.name)) pax.push(paxRecord('path', file.name));
    if (file.size >= 8 ** 11) pax.push(paxRecord('size', String(file.size)));
    if (pax.length) {
      const data = Buffer.from(pax.join(''), 'utf8');
      yield header({ name: `PaxHeader/${asciiTail(file.name, 80)}`, size: data.length, mtime: file.mtime, type: 'x' });
      yield padded(data);
    }
    yield header({ name: asciiTail(file.name, 100), size: file.size >= 8 ** 11 ? 0 : file.size, mtime: file.mtime, type: '0' });
    let written = 0;
    for await (const chunk of file.body()) {
      written += chunk.length;
      yield chunk;
    }
    if (written !== file.size) throw new PackError(`${file.name}: expected ${file.size} bytes, read ${written} (did the file change while packing?)`);
    if (file.size % BLOCK) yield Buffer.alloc(BLOCK - (file.size % BLOCK));
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** A pax record: "<length> <key>=<value>\n", the length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(body);
  while (String(length).length + Buffer.byteLength(body) !== length) length = String(length).length + Buffer.byteLength(body);
  return `${length}${body}`;
}

/** The last `max` bytes of the name, in printable ASCII (the pax header carries the real one). */
function asciiTail(name: string, max: number): string {
  return name.replace(/[^\x20-\x7e]/g, '_').slice(-max);
}

function header(fields: { name: string; size: number; mtime: number; type: string }): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(fields.name, 0, 100, 'ascii');
  block.write('0000644\0', 100, 'ascii');
  block.write('0000000\0', 108, 'ascii');
  block.write('0000000\0', 116, 'ascii');
  block.write(`${fields.size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  block.write(`${Math.floor(fields.mtime).toString(8).padStart(11, '0')}\0`, 136, 'ascii');
  block.write(fields.type, 156, 'ascii');
  block.write('ustar\0' + '00', 257, 'ascii');
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padded(data: Buffer): Buffer {
  const rest = data.length % BLOCK;
  return rest ? Buffer.concat([data, Buffer.alloc(BLOCK - rest)]) : data;
}

/**
 * Reads an archive: for each regular file, `open(name, size)` returns where its bytes go (a Writable, ended and
 * awaited here) or null to skip it. Other entry types (folders, links) are skipped. Throws on a damaged archive.
 */
export async function readTar(input: AsyncIterable<Buffer>, open: (name: string, size: number) => Promise<Writable | null> | Writable | null): Promise<void> {
  const reader = new BlockReader(input);
  let paxPath: string | undefined;
  let paxSize: number | undefined;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (!block) throw new PackError('the archive ends without its end marker (truncated?)');
    if (block.every((byte) => byte === 0)) return;
    if (!checksumOk(block)) throw new PackError('a tar header has a wrong checksum (not a tar archive, or damaged)');
    const type = String.fromCharCode(block[156] || 0x30);
    const size = paxSize ?? Number.parseInt(field(block, 124, 12) || '0', 8);
    const prefix = field(block, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
    paxPath = undefined;
    paxSize = undefined;
    if (type === 'x') {
      const records = parsePax((await reader.read(padTo(size))) ?? Buffer.alloc(0), size);
      paxPath = records.path;
      paxSize = records.size !== undefined ? Number(records.size) : undefined;
      continue;
    }
    const target = type === '0' || type === '7' ? await open(name, size) : null;
    await reader.copy(size, target);
    await reader.read(padTo(size) - size);
  }
}

function checksumOk(block: Buffer): boolean {
  const stored = Number.parseInt(field(block, 148, 8), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return sum === stored;
}

function field(block: Buffer, offset: number, length: number): string {
  const bytes = block.subarray(offset, offset + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? length : end).toString('utf8').trim();
}

function padTo(size: number): number {
  return Math.ceil(size / BLOCK) * BLOCK;
}

function parsePax(data: Buffer, size: number): Record<string, string> {
  const records: Record<string, string> = {};
  let at = 0;
  while (at < size) {
    const space = data.indexOf(0x20, at);
    const length = Number.parseInt(data.subarray(at, space).toString('ascii'), 10);
    if (!(length > 0) || space === -1) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    records[record.slice(0, equals)] = record.slice(equals + 1);
    at += length;
  }
  return records;
}

/** Exact-size reads over a stream of chunks of any size. */
class BlockReader {
  private readonly chunks: AsyncIterator<Buffer>;
  private buffered: Buffer = Buffer.alloc(0);
  private ended = false;

  constructor(input: AsyncIterable<Buffer>) {
    this.chunks = input[Symbol.asyncIterator]();
  }

  private async fill(): Promise<boolean> {
    if (this.ended) return false;
    const next = await this.chunks.next();
    if (next.done) {
      this.ended = true;
      return false;
    }
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, next.value]) : next.value;
    return true;
  }

  /** Exactly n bytes, or null when the stream ends first. */
  async read(n: number): Promise<Buffer | null> {
    while (this.buffered.length < n) if (!(await this.fill())) return null;
    const out = this.buffered.subarray(0, n);
    this.buffered = this.buffered.subarray(n);
    return out;
  }

  /** n bytes into `target` (respecting its back-pressure), or skipped when it is null. */
  async copy(n: number, target: Writable | null): Promise<void> {
    let left = n;
    while (left > 0) {
      if (!this.buffered.length && !(await this.fill())) throw new PackError(`the archive ends inside a file (${left} bytes missing)`);
      const take = this.buffered.subarray(0, Math.min(left, this.buffered.length));
      this.buffered = this.buffered.subarray(take.length);
      left -= take.length;
      if (target && !target.write(take)) await once(target, 'drain');
    }
    if (target) {
      target.end();
      await once(target, 'finish');
    }
  }
}

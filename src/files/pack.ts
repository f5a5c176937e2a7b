// `deskbench files pack` / `unpack`: the locked files as one archive for a machine without the network. The archive is
// a tar (gzip- or zstd-compressed, by its name) holding the lock as `deskbench-files.lock.json` and each locked file as
// `files/<cache name>`; unpacking checks every file against the packed lock and puts it in the cache, where a run looks
// first, and writes the lock beside the project when it has none — so that machine needs nothing else.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { cacheFileName, findCached } from './cache.ts';
import { FileChangedError, PackError } from './errors.ts';
import { type FilesLock, LOCKFILE_NAME, formatLock, parseLock } from './lockfile.ts';
import { ProgressBar, type ProgressOutput } from './progress-bar.ts';
import { type TarFile, readTar, tarStream } from './tar.ts';
import { hashOf } from './verify.ts';

const FILES_FOLDER = 'files/';

type Compression = 'gzip' | 'zstd' | 'none';

/** The compression an archive's name asks for: .tar.gz / .tgz, .tar.zst / .tzst, or .tar. */
export function compressionOf(path: string): Compression {
  if (/\.(tar\.gz|tgz)$/i.test(path)) return 'gzip';
  if (/\.(tar\.zst|tzst)$/i.test(path)) return 'zstd';
  if (/\.tar$/i.test(path)) return 'none';
  throw new PackError(`${path}: expected an archive name ending in .tar.zst, .tar.gz (or .tgz) or .tar`);
}

function compressor(kind: Compression): NodeJS.ReadWriteStream | undefined {
  if (kind === 'gzip') return zlib.createGzip();
  if (kind === 'zstd') return zstd().createZstdCompress();
  return undefined;
}

function decompressor(kind: Compression): NodeJS.ReadWriteStream | undefined {
  if (kind === 'gzip') return zlib.createGunzip();
  if (kind === 'zstd') return zstd().createZstdDecompress();
  return undefined;
}

/** zlib's zstd streams (Node ≥ 22.15 and 23.8). */
function zstd(): { createZstdCompress(): NodeJS.ReadWriteStream; createZstdDecompress(): NodeJS.ReadWriteStream } {
  const z = zlib as unknown as Partial<ReturnType<typeof zstd>>;
  if (!z.createZstdCompress || !z.createZstdDecompress) {
    throw new PackError(`this Node (${process.version}) has no zstd in zlib (Node 22.15 or later has): use a .tar.gz name instead`);
  }
  return z as ReturnType<typeof zstd>;
}

export interface PackSummary {
  files: number;
  /** The locked files' bytes, and the archive's. */
  bytes: number;
  archiveBytes: number;
}

/**
 * Writes the archive of every locked file. Each must be in the cache and be the locked file: otherwise nothing is
 * written and the error lists what is missing or changed (`deskbench files pull` fetches them).
 */
export async function packFiles(lock: FilesLock, cacheDir: string, out: string, progress?: ProgressOutput): Promise<PackSummary> {
  const kind = compressionOf(out);
  const entries: { name: string; path: string; size: number }[] = [];
  const problems: string[] = [];
  for (const [url, entry] of Object.entries(lock.files).sort(([a], [b]) => a.localeCompare(b))) {
    const path = await findCached(cacheDir, url);
    if (!path) problems.push(`${url}: not in the cache (${cacheDir})`);
    else if ((await hashOf(path)) !== entry.sha256) problems.push(new FileChangedError(url, entry.sha256, await hashOf(path), `the cached copy ${path}`).message);
    else entries.push({ name: `${FILES_FOLDER}${cacheFileName(url)}`, path, size: entry.size });
  }
  if (problems.length) {
    throw new PackError(`cannot pack: ${problems.length} of ${Object.keys(lock.files).length} locked files are not ready (run deskbench files pull first):\n  ${problems.join('\n  ')}`);
  }
  const lockBytes = Buffer.from(formatLock(lock));
  const bytes = entries.reduce((total, entry) => total + entry.size, 0);
  const bar = progress ? new ProgressBar(progress, 'pack', entries.length, bytes) : undefined;
  const now = Math.floor(Date.now() / 1000);
  async function* files(): AsyncGenerator<TarFile> {
    yield { name: LOCKFILE_NAME, size: lockBytes.length, mtime: now, body: async function* () { yield lockBytes; } };
    for (const entry of entries) {
      yield {
        name: entry.name,
        size: entry.size,
        mtime: now,
        body: async function* () {
          for await (const chunk of createReadStream(entry.path)) {
            bar?.received(chunk.length);
            yield chunk as Buffer;
          }
          bar?.fileDone();
        },
      };
    }
  }
  const partial = `${out}.partial`;
  const stages = [Readable.from(tarStream(files())), compressor(kind), createWriteStream(partial)].filter((stage) => stage !== undefined);
  try {
    await pipeline(stages as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream]);
    await rename(partial, out);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  bar?.finish();
  return { files: entries.length, bytes, archiveBytes: (await stat(out)).size };
}

export interface UnpackSummary {
  /** The packed lock. */
  lock: FilesLock;
  files: number;
  bytes: number;
  /** Where the packed lock was written, when the project had none. */
  wroteLock?: string;
  /** URLs whose packed file is not the one the project's lock names (a run will fail those tasks). */
  differsFromProjectLock: string[];
}

/**
 * Puts the archive's files into the cache, each checked against the packed lock first (a file that does not match
 * is not kept, and the unpack fails). `projectLock` is the lock the runs will read: written from the archive when
 * absent, compared with it when present.
 */
export async function unpackFiles(archive: string, cacheDir: string, projectLock: { path: string; lock?: FilesLock }, progress?: ProgressOutput): Promise<UnpackSummary> {
  const kind = compressionOf(archive);
  await mkdir(cacheDir, { recursive: true });
  let lock: FilesLock | undefined;
  let byName = new Map<string, { url: string; sha256: string }>();
  let bar: ProgressBar | undefined;
  let files = 0;
  let bytes = 0;
  const input = [createReadStream(archive), decompressor(kind)].filter((stage) => stage !== undefined) as NodeJS.ReadableStream[];
  const stream = input.length === 2 ? input[0].pipe(input[1] as NodeJS.ReadWriteStream) : input[0];
  input[0].on('error', (error) => (stream as Readable).destroy(error));
  await readTar(stream as AsyncIterable<Buffer>, async (name, size) => {
    if (name === LOCKFILE_NAME) {
      return collect((text) => {
        lock = parseLock(text, `${archive}: ${LOCKFILE_NAME}`);
        byName = new Map(Object.entries(lock.files).map(([url, entry]) => [`${FILES_FOLDER}${cacheFileName(url)}`, { url, sha256: entry.sha256 }]));
        const total = Object.values(lock.files).reduce((sum, entry) => sum + entry.size, 0);
        bar = progress ? new ProgressBar(progress, 'unpack', byName.size, total) : undefined;
      });
    }
    if (!lock) throw new PackError(`${archive}: ${LOCKFILE_NAME} must come first in the archive (is it a deskbench files pack?)`);
    const locked = byName.get(name);
    if (!locked) throw new PackError(`${archive}: ${name} is not a file the packed lock names`);
    const target = join(cacheDir, name.slice(FILES_FOLDER.length));
    const partial = `${target}.partial`;
    const hash = createHash('sha256');
    const handle = await open(partial, 'w');
    files++;
    bytes += size;
    // Checked before it takes its name in the cache: a file that is not the packed one never lands there.
    return new Writable({
      write(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        bar?.received(chunk.length);
        handle.write(chunk).then(() => callback(), callback);
      },
      final(callback) {
        const actual = hash.digest('hex');
        handle
          .close()
          .then(async () => {
            if (actual !== locked.sha256) {
              await rm(partial, { force: true });
              throw new FileChangedError(locked.url, locked.sha256, actual, `the copy in ${archive}`);
            }
            await rename(partial, target);
            bar?.fileDone();
          })
          .then(() => callback(), callback);
      },
    });
  });
  bar?.finish();
  if (!lock) throw new PackError(`${archive}: no ${LOCKFILE_NAME} inside (is it a deskbench files pack?)`);
  const packed = lock;
  const differsFromProjectLock = projectLock.lock
    ? Object.entries(packed.files).filter(([url, entry]) => projectLock.lock?.files[url] && projectLock.lock.files[url].sha256 !== entry.sha256).map(([url]) => url)
    : [];
  let wroteLock: string | undefined;
  if (!projectLock.lock) {
    await pipeline(Readable.from([formatLock(packed)]), createWriteStream(projectLock.path));
    wroteLock = projectLock.path;
  }
  return { lock: packed, files, bytes, wroteLock, differsFromProjectLock };
}

/** A Writable that gathers a small file's text and hands it over when it ends. */
function collect(take: (text: string) => void): Writable {
  const parts: Buffer[] = [];
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      parts.push(chunk);
      callback();
    },
    final(callback) {
      try {
        take(Buffer.concat(parts).toString('utf8'));
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
}

// The errors of task files: a download that failed, and a file whose content is not the one the lock recorded. Both
// are the infrastructure's failures, not the agent's: a run counts the tasks they end apart (report.json's
// `infrastructure`), and their codes say which. And a files pack that cannot be written or read.
import { DeskbenchError, type ErrorCode } from '../errors.ts';

/** A file could not be fetched: an HTTP error status, a network error, or a body cut short after every try. */
export class DownloadError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DOWNLOAD_FAILED';
  /** The HTTP status of the last answer, when there was one. */
  readonly status?: number;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.status = options?.status;
  }
}

/** A file's sha256 differs from the one in the lock: the file changed upstream (or the cached copy is not the locked one). */
export class FileChangedError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_FILE_CHANGED';
  readonly url: string;
  readonly expected: string;
  readonly actual: string;
  constructor(url: string, expected: string, actual: string, where: string) {
    super(
      `${url}: the file changed upstream: its sha256 is ${actual}, the lock says ${expected} (${where}). ` +
        'Run `deskbench files pull` to fetch the locked file again (a mirror or `files lock --pin` keeps it from moving), ' +
        'or `deskbench files lock --update` to accept the new file.',
    );
    this.url = url;
    this.expected = expected;
    this.actual = actual;
  }
}

/**
 * A files pack (`deskbench files pack` / `unpack`) that cannot be written or read: a name that is no archive's, no lock
 * to pack, locked files not pulled yet, a tar that is damaged or cut short, an archive without its lock or with a file
 * the lock does not name.
 */
export class PackError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_FILES_PACK';
}

/** The codes of errors that are the infrastructure's, not the agent's. */
const INFRASTRUCTURE_ERROR_CODES: readonly string[] = ['DESKBENCH_DOWNLOAD_FAILED', 'DESKBENCH_FILE_CHANGED'];

/** The infrastructure error code of an error or of one of its causes (a setup step wraps the error it met). */
export function infrastructureErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 10; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && INFRASTRUCTURE_ERROR_CODES.includes(code)) return code;
  }
  return undefined;
}

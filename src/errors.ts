// Every error deskbench raises carries a stable `code` from the list below (as vitest's errors have), which callers,
// reports and tests can check instead of a message. The classes of agents, evaluation and runs are here; a class
// that belongs to one room (a task file's error, a desktop's answer) lives there, extends DeskbenchError, and takes
// its code from this list, which the type checker holds it to. `instanceof` works too: each class exists once.

/** Every code, with the class that carries it. */
export const ERROR_CODES = [
  'DESKBENCH_ERROR', // DeskbenchError: the base
  'DESKBENCH_INTERNAL', // InternalError: deskbench's own invariant does not hold (a bug)
  'DESKBENCH_OPTIONS', // OptionsError: the deskbench() options cannot work (node/plugin)
  'DESKBENCH_SKIP_TASK', // SkipTask
  'DESKBENCH_AGENT', // AgentError
  'DESKBENCH_AGENT_API', // AgentApiError
  'DESKBENCH_AGENT_RATE_LIMIT', // AgentRateLimitError
  'DESKBENCH_AGENT_TIMEOUT', // AgentTimeoutError
  'DESKBENCH_AGENT_RESPONSE', // AgentResponseError
  'DESKBENCH_ACTION', // ActionError
  'DESKBENCH_AUDIO_UNSUPPORTED', // UnsupportedAudioError
  'DESKBENCH_AUDIO_UNREADABLE', // UnreadableAudioError
  'DESKBENCH_WAV_UNSUPPORTED', // UnsupportedWavError
  'DESKBENCH_WAV_CORRUPT', // CorruptWavError
  'DESKBENCH_MALFORMED_INPUT', // MalformedInputError: a file or text not in the form it must have
  'DESKBENCH_METRIC_OPTIONS', // eval/errors.ts MetricOptionsError: what the evaluator asks a metric cannot work
  'DESKBENCH_METRIC_RESULT', // eval/errors.ts MetricResultError: a metric returned no score
  'DESKBENCH_GETTER', // eval/errors.ts GetterError: a getter cannot produce its value
  'DESKBENCH_PPTX_MISMATCH', // eval/metrics/pptx/compare.ts: the first difference of two presentations
  'DESKBENCH_RUN_REPORT', // RunReportError
  'DESKBENCH_TASK_FILE', // task/errors.ts TaskFileError
  'DESKBENCH_TASK_PATH_MISSING', // task/errors.ts MissingTaskPathError
  'DESKBENCH_SOLUTION_TASK_ABSENT', // node/verify/select.ts
  'DESKBENCH_PATH_ESCAPE', // task/contained-path.ts PathEscapeError
  'DESKBENCH_SETUP_STEP', // setup/errors.ts SetupStepError
  'DESKBENCH_STEP_PARAMETER', // setup/errors.ts StepParameterError
  'DESKBENCH_STEP_FAILED', // setup/errors.ts StepFailedError: a step could not do its work
  'DESKBENCH_DESKTOP_REQUEST', // desktop/client.ts DesktopRequestError
  'DESKBENCH_DESKTOP_UNAVAILABLE', // desktop/client.ts DesktopUnavailableError: a desktop, its pool or its Chrome does not answer
  'DESKBENCH_DOCKER_ENGINE', // desktop/image.ts: no Docker engine answers
  'DESKBENCH_DESKTOP_IMAGE_MISSING', // desktop/image.ts DesktopImageMissingError
  'DESKBENCH_DESKTOP_START', // desktop/providers/docker/container.ts DesktopStartError: a container that never got ready
  'DESKBENCH_DOWNLOAD_FAILED', // files/errors.ts DownloadError
  'DESKBENCH_DOWNLOAD_ATTEMPT', // files/fetch-file.ts: one attempt of a download (retried)
  'DESKBENCH_FILE_CHANGED', // files/errors.ts FileChangedError
  'DESKBENCH_LOCKFILE', // files/lockfile.ts: a lock file that cannot be read
  'DESKBENCH_FILES_PACK', // files/errors.ts PackError: a files pack that cannot be written or read
  'DESKBENCH_CONFIG', // node/cli/check.ts ConfigError: the vitest config `deskbench check` reads
  'DESKBENCH_USAGE', // node/cli/files.ts: a command line that cannot work
  'DESKBENCH_TASK_FAILED', // worker/runtime.ts TaskFailedError: a task's test fails (an error state, or a score below the threshold)
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Base of deskbench's errors: `code` names the kind for good, whatever the message says. */
export class DeskbenchError extends Error {
  readonly code: ErrorCode = 'DESKBENCH_ERROR';
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * Something deskbench's own code never expects happened: an invariant broke (an argument its callers never pass, a
 * state they never reach), or a run it drives met an error nothing handled. A bug to report, not a task's mistake.
 */
export class InternalError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_INTERNAL';
}

/** deskbench()'s options cannot work: stops the run before any desktop starts, with one message. */
export class OptionsError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_OPTIONS';
}

/** Thrown by a setup step (or anything before scoring) to skip the whole task, e.g. "needs a Google account". */
export class SkipTask extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_SKIP_TASK';
}

// --- agents ---

/** The agent itself failed (model error, bad answer, a crash in predict): the run ends with that error, not a score. */
export class AgentError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_AGENT';
}

/** The model's API answered with an error status (or could not be reached: status 0). */
export class AgentApiError extends AgentError {
  override readonly code: ErrorCode = 'DESKBENCH_AGENT_API';
  readonly provider: string;
  readonly status: number;
  constructor(provider: string, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.provider = provider;
    this.status = status;
  }
}

/** Still rate limited after the allowed retries. */
export class AgentRateLimitError extends AgentApiError {
  override readonly code: ErrorCode = 'DESKBENCH_AGENT_RATE_LIMIT';
  readonly attempts: number;
  constructor(provider: string, status: number, attempts: number, message: string, options?: { cause?: unknown }) {
    super(provider, status, message, options);
    this.attempts = attempts;
  }
}

/** No complete answer within the deadline. */
export class AgentTimeoutError extends AgentError {
  override readonly code: ErrorCode = 'DESKBENCH_AGENT_TIMEOUT';
  readonly timeoutMs: number;
  constructor(provider: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(`${provider}: no answer within ${timeoutMs} ms (timeout)`, options);
    this.timeoutMs = timeoutMs;
  }
}

/** The API answered 2xx but not with what its format promises. */
export class AgentResponseError extends AgentError {
  override readonly code: ErrorCode = 'DESKBENCH_AGENT_RESPONSE';
  constructor(provider: string, detail: string, options?: { cause?: unknown }) {
    super(`${provider}: malformed reply: ${detail}`, options);
  }
}

/** An action the desktop cannot run: the message names the action type and the field. */
export class ActionError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_ACTION';
}

// --- file formats read by the metrics ---

/** An audio file in a format (or encoding) that exists but that the decoder does not handle: not a score. */
export class UnsupportedAudioError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_AUDIO_UNSUPPORTED';
}

/** A file that cannot be read as audio at all: missing, empty, corrupt, or not audio. */
export class UnreadableAudioError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_AUDIO_UNREADABLE';
}

/** A WAV whose encoding (or WAV variant) the decoder does not handle. */
export class UnsupportedWavError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_WAV_UNSUPPORTED';
}

/** Not a readable WAV (a broken header, no fmt or data chunk…). */
export class CorruptWavError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_WAV_CORRUPT';
}

/**
 * A file, a text or a value that cannot be read or used as what it must be: not that format, malformed, or without a
 * part it must have (a PDF that does not open, XML that is not well-formed, a workbook with no worksheet, a shell line
 * with an open quote), or values a computation cannot take (images of two sizes). Usually what a metric or a file
 * format's reader was given; where OSWorld's Python raises on it, the message names the exception.
 */
export class MalformedInputError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_MALFORMED_INPUT';
}

// --- comparing and rerunning runs (deskbench compare, deskbench rerun) ---

/** A results folder or report.json that cannot be read as a run: the message names the file and the field. */
export class RunReportError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_RUN_REPORT';
}

// The error classes of evaluation and of agents, each with a stable `code` (as vitest's errors have) that callers,
// reports and tests can check instead of a message; `instanceof` works too, since each class exists once.

/** Base of deskbench's errors: `code` names the kind for good, whatever the message says. */
export class DeskbenchError extends Error {
  readonly code: string = 'DESKBENCH_ERROR';
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown by a setup step (or anything before scoring) to skip the whole task, e.g. "needs a Google account". */
export class SkipTask extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_SKIP_TASK';
}

// --- agents ---

/** The agent itself failed (model error, bad answer, a crash in predict): the run ends with that error, not a score. */
export class AgentError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_AGENT';
}

/** The model's API answered with an error status (or could not be reached: status 0). */
export class AgentApiError extends AgentError {
  override readonly code: string = 'DESKBENCH_AGENT_API';
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
  override readonly code: string = 'DESKBENCH_AGENT_RATE_LIMIT';
  readonly attempts: number;
  constructor(provider: string, status: number, attempts: number, message: string, options?: { cause?: unknown }) {
    super(provider, status, message, options);
    this.attempts = attempts;
  }
}

/** No complete answer within the deadline. */
export class AgentTimeoutError extends AgentError {
  override readonly code: string = 'DESKBENCH_AGENT_TIMEOUT';
  readonly timeoutMs: number;
  constructor(provider: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(`${provider}: no answer within ${timeoutMs} ms (timeout)`, options);
    this.timeoutMs = timeoutMs;
  }
}

/** The API answered 2xx but not with what its format promises. */
export class AgentResponseError extends AgentError {
  override readonly code: string = 'DESKBENCH_AGENT_RESPONSE';
  constructor(provider: string, detail: string, options?: { cause?: unknown }) {
    super(`${provider}: malformed reply: ${detail}`, options);
  }
}

/** An action the desktop cannot run: the message names the action type and the field. */
export class ActionError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_ACTION';
}

// --- file formats read by the metrics ---

/** An audio file in a format (or encoding) that exists but that the decoder does not handle: not a score. */
export class UnsupportedAudioError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_AUDIO_UNSUPPORTED';
}

/** A file that cannot be read as audio at all: missing, empty, corrupt, or not audio. */
export class UnreadableAudioError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_AUDIO_UNREADABLE';
}

/** A WAV whose encoding (or WAV variant) the decoder does not handle. */
export class UnsupportedWavError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_WAV_UNSUPPORTED';
}

/** Not a readable WAV (a broken header, no fmt or data chunk…). */
export class CorruptWavError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_WAV_CORRUPT';
}

// --- comparing and rerunning runs (deskbench compare, deskbench rerun) ---

/** A results folder or report.json that cannot be read as a run: the message names the file and the field. */
export class RunReportError extends DeskbenchError {
  override readonly code: string = 'DESKBENCH_RUN_REPORT';
}

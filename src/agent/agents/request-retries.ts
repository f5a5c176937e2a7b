// The one request wrapper the model-backed agents share: a deadline per attempt,
// bounded retries on rate limits (429, and Anthropic's 529 "overloaded") that honour retry-after, and every other
// failure turned into an error that says what happened. A predict() call therefore ends or throws; it never hangs.

import { AgentApiError, AgentError, AgentRateLimitError, AgentResponseError, AgentTimeoutError } from '../../errors.ts';

export interface RetryPolicy {
  /** Name used in messages ("openai", "anthropic"). */
  provider: string;
  /** Deadline of one attempt, in ms. */
  timeoutMs: number;
  /** Retries after a rate-limit answer (so at most maxRetries + 1 attempts). Default 3. */
  maxRetries?: number;
  /** Longest wait before a retry, in ms, whatever retry-after says. Default 60,000. */
  maxRetryWaitMs?: number;
  /** The task's abort signal. */
  signal?: AbortSignal;
  log?: (message: string) => void;
}

const RETRIED_STATUSES = new Set([429, 529]);

/** Run `request` (which must honour the signal it is given) under the policy above. */
export async function requestWithRetries<T>(policy: RetryPolicy, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { maxRetries = 3, maxRetryWaitMs = 60_000 } = policy;
  for (let attempt = 0; ; attempt++) {
    if (policy.signal?.aborted) throw new AgentError(`${policy.provider}: request aborted`, { cause: policy.signal.reason });
    const deadline = AbortSignal.timeout(policy.timeoutMs);
    const signal = policy.signal ? AbortSignal.any([deadline, policy.signal]) : deadline;
    try {
      return await request(signal);
    } catch (error) {
      if (error instanceof AgentError) throw error;
      if (policy.signal?.aborted) throw new AgentError(`${policy.provider}: request aborted`, { cause: error });
      if (deadline.aborted || errorName(error) === 'APIConnectionTimeoutError') {
        throw new AgentTimeoutError(policy.provider, policy.timeoutMs, { cause: error });
      }
      const status = errorStatus(error);
      if (status !== undefined && RETRIED_STATUSES.has(status)) {
        if (attempt >= maxRetries) {
          throw new AgentRateLimitError(policy.provider, status, attempt + 1,
            `${policy.provider}: still rate limited (HTTP ${status}) after ${attempt + 1} attempts: ${errorMessage(error)}`, { cause: error });
        }
        const waitMs = Math.min(maxRetryWaitMs, retryAfterMs(error) ?? 1000 * 2 ** attempt);
        policy.log?.(`${policy.provider}: HTTP ${status}, retrying in ${waitMs} ms (retry ${attempt + 1} of ${maxRetries})`);
        await sleep(waitMs, policy.signal);
        continue;
      }
      if (status !== undefined) {
        throw new AgentApiError(policy.provider, status, `${policy.provider}: HTTP ${status}: ${errorMessage(error)}`, { cause: error });
      }
      if (error instanceof SyntaxError) throw new AgentResponseError(policy.provider, `the body is not JSON (${error.message})`, { cause: error });
      if (errorName(error) === 'APIConnectionError') {
        throw new AgentApiError(policy.provider, 0, `${policy.provider}: could not reach the API: ${errorMessage(error)}`, { cause: error });
      }
      throw new AgentError(`${policy.provider}: request failed: ${errorMessage(error)}`, { cause: error });
    }
  }
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.constructor.name : undefined;
}

function errorStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** retry-after-ms, or retry-after in seconds or as an HTTP date, from an SDK error's response headers. */
function retryAfterMs(error: unknown): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  const get = (name: string): string | null | undefined => headers instanceof Headers ? headers.get(name)
    : typeof headers === 'object' && headers !== null ? (headers as Record<string, string | undefined>)[name] : undefined;
  const ms = Number.parseFloat(get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number.parseFloat(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(new AgentError('request aborted', { cause: signal?.reason })); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

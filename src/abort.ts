// Stop waiting at once when a task is aborted (its timeout or Ctrl-C), even for work that does not honour the signal:
// a model request, a desktop call, a whole task. The work itself is left to settle on its own.

export const ABORTED = Symbol('aborted');

/** The work's result, or ABORTED as soon as the signal fires (right away when it already has). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return work;
  // A rejection after the abort is nobody's business any more; without a handler it would crash the worker.
  const settled = work.catch(() => {});
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject);
    void settled.finally(() => signal.removeEventListener('abort', onAbort));
  });
}

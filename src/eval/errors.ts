// Errors of evaluation that are not about the files a metric reads (those are MalformedInputError, src/errors.ts):
// an evaluator that asks a metric for what it cannot do, a metric that returns no score, a getter that cannot get its
// value. The engine turns each into the task's eval_error, with the message as it is.
import { DeskbenchError, type ErrorCode } from '../errors.ts';

/**
 * What the evaluator asks of a metric cannot work: an option, a rule or an `expected` value missing or of the wrong
 * shape, an unknown metric, method or type, a feature it does not support (an XPath axis), or a setting the host lacks
 * for it (python3, DESKBENCH_ALLOW_HOST_PYTHON). The task's evaluator (or the caller of runMetric) is to fix.
 */
export class MetricOptionsError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_METRIC_OPTIONS';
}

/** A metric returned something that is not a score between 0 and 1 (a 7, a NaN, a string): the metric is broken. */
export class MetricResultError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_METRIC_RESULT';
}

/**
 * A getter cannot produce its value: its `config` is missing a field or has the wrong shape, or the desktop lacks what
 * it reads (no Chrome DevTools or VLC endpoint, a Chrome profile file that is not there).
 */
export class GetterError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_GETTER';
}

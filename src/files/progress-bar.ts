// The progress of many files at once (files lock, pull, pack): bytes, files, rate and ETA. On a terminal one bar
// redrawn in place (at most 10 times a second); elsewhere (CI logs, a pipe) a plain line every few seconds and at the
// end, so a log stays short.

export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export class ProgressBar {
  private readonly out: ProgressOutput;
  private readonly label: string;
  private readonly files: number;
  private totalBytes: number;
  private readonly started = Date.now();
  private doneFiles = 0;
  private doneBytes = 0;
  /** Bytes that came over the network (the rate counts these, not files found in the cache). */
  private transferred = 0;
  /** The first line waits one interval too: a rate from the first few bytes says little. */
  private lastDraw = Date.now();
  private readonly interval: number;
  private finished = false;

  /** `bytes`: the total when known ahead (a lock names every size); grows as answers name sizes otherwise. */
  constructor(out: ProgressOutput, label: string, files: number, bytes = 0) {
    this.out = out;
    this.label = label;
    this.files = files;
    this.totalBytes = bytes;
    this.interval = out.isTTY ? 100 : 5000;
  }

  /** Bytes received over the network. */
  received(bytes: number): void {
    this.transferred += bytes;
    this.doneBytes += bytes;
    this.draw();
  }

  /** A size learnt from an answer, for a file whose size was not known ahead. */
  expect(bytes: number): void {
    this.totalBytes += bytes;
  }

  /** A file done (`bytes`: those of it not already counted as received, e.g. a file found in the cache). */
  fileDone(bytes = 0): void {
    this.doneFiles++;
    this.doneBytes += bytes;
    this.draw();
  }

  /** The last line (a terminal's bar is ended with a newline). */
  finish(): void {
    if (this.finished) return;
    this.draw(true);
    this.finished = true;
    if (this.out.isTTY) this.out.write('\n');
  }

  /** `12/200 files · 12.0/200.0 MiB · 24.1 MiB/s · ETA 8.0 s`. */
  line(): string {
    const seconds = Math.max((Date.now() - this.started) / 1000, 0.001);
    const rate = this.transferred / seconds;
    const total = Math.max(this.totalBytes, this.doneBytes);
    const left = total - this.doneBytes;
    const eta = this.doneFiles === this.files ? `done in ${formatSeconds(seconds)}` : rate > 0 && total > 0 ? `ETA ${formatSeconds(left / rate)}` : 'ETA –';
    return `${this.doneFiles}/${this.files} files · ${formatBytes(this.doneBytes)}/${total ? formatBytes(total) : '?'} · ${formatBytes(rate)}/s · ${eta}`;
  }

  private draw(force = false): void {
    if (this.finished) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < this.interval) return;
    this.lastDraw = now;
    const text = `${this.label} ${this.line()}`;
    if (!this.out.isTTY) {
      this.out.write(`${text}\n`);
      return;
    }
    const width = Math.max(10, Math.min(30, (this.out.columns ?? 80) - text.length - 4));
    const total = Math.max(this.totalBytes, this.doneBytes);
    const share = this.files === this.doneFiles ? 1 : total ? this.doneBytes / total : this.doneFiles / Math.max(this.files, 1);
    const filled = Math.round(Math.min(1, share) * width);
    this.out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${text}\u001b[K`);
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

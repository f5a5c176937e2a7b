// Waiting for the desktop to settle. OSWorld's harness sleeps 60 s after a task's setup before the agent's first
// observation, and 20 s after its last action before the evaluation: agents scored there first saw apps fully
// loaded, and evaluators read files the apps had finished writing. Here the wait ends as soon as the desktop is idle
// (for 2 s in a row its processes used under 15 % of a core and were seldom runnable; no sooner than 2 s after the
// wait began: an app just launched has not started working yet), and lasts the full time where it stays busy.
import type { DesktopClient } from './client.ts';

export interface SettleOptions {
  /** The longest wait, seconds (OSWorld's fixed sleep). 0: no wait. */
  maxSeconds: number;
  /** The shortest wait, seconds. */
  minSeconds?: number;
  /** How long the desktop must stay idle, seconds. */
  holdSeconds?: number;
  /** Idle: under this share of one core. */
  idleShare?: number;
}

// One poll, run in the desktop: over a second, how often any of its processes (other than this one) was runnable,
// and the CPU time its processes used (cgroup v2's cpu.stat, else v1's cpuacct), as "<runnable samples> <µs>". A
// desktop starved by a loaded host uses little CPU while its apps are still starting: runnable processes tell.
const PROBE = `
import os, time
def cpu():
    try:
        for line in open('/sys/fs/cgroup/cpu.stat'):
            if line.startswith('usage_usec '): return int(line.split()[1])
    except OSError: pass
    try: return int(open('/sys/fs/cgroup/cpuacct/cpuacct.usage').read()) // 1000
    except OSError: return -1
def runnable():
    me = os.getpid()
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid) == me: continue
        try:
            if open('/proc/' + pid + '/stat').read().rsplit(')', 1)[1].split()[0] == 'R': return True
        except (OSError, IndexError): pass
    return False
before = cpu()
busy = 0
for _ in range(10):
    busy += runnable()
    time.sleep(0.1)
after = cpu()
print(busy, after - before if before >= 0 and after >= 0 else -1)
`;

/** Probes failing in a row before the desktop counts as one that cannot be probed. */
const MAX_FAILED_POLLS = 5;

interface Poll {
  /** Samples (of 10) in which some process was runnable. */
  runnable: number;
  /** CPU time used over the second, µs; null where the desktop has no cgroup figures. */
  cpuMicros: number | null;
}

async function poll(client: DesktopClient): Promise<Poll | null> {
  const result = await client.execute(['python3', '-c', PROBE]).catch(() => null);
  const match = /^(\d+) (-?\d+)/.exec(result?.output.trim() ?? '');
  if (!match) return null;
  const micros = Number(match[2]);
  return { runnable: Number(match[1]), cpuMicros: micros < 0 ? null : micros };
}

/** Waits as described above; says how long it waited and whether the desktop was idle by then. */
export async function settleDesktop(client: DesktopClient, options: SettleOptions, signal?: AbortSignal): Promise<{ seconds: number; idle: boolean }> {
  const { maxSeconds, minSeconds = 2, holdSeconds = 2, idleShare = 0.15 } = options;
  const started = Date.now();
  const elapsed = () => (Date.now() - started) / 1000;
  if (maxSeconds <= 0) return { seconds: 0, idle: false };
  let idleSince: number | null = null;
  let failedPolls = 0;
  while (elapsed() < maxSeconds && !signal?.aborted) {
    const sample = await poll(client);
    const now = Date.now();
    if (!sample) {
      // A probe that failed once (a request lost on a loaded host) says nothing: busy until one answers. A desktop
      // that cannot be probed at all (no python3 there) gets the shortest wait only.
      idleSince = null;
      if (++failedPolls >= MAX_FAILED_POLLS && elapsed() >= minSeconds) return { seconds: elapsed(), idle: false };
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    failedPolls = 0;
    const busy = sample.runnable >= 2 || (sample.cpuMicros !== null && sample.cpuMicros / 1e6 >= idleShare);
    idleSince = busy ? null : (idleSince ?? now - 1000);
    if (idleSince !== null && (now - idleSince) / 1000 >= holdSeconds && elapsed() >= minSeconds) return { seconds: elapsed(), idle: true };
  }
  return { seconds: elapsed(), idle: false };
}

// Screen recording with ffmpeg x11grab, as OSWorld's /start_recording and /end_recording.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { HttpError } from './http.ts';

const RECORDING_PATH = '/tmp/recording.mp4';
let recorder: { process: ChildProcess; stderr: string; exited: boolean } | undefined;

export async function startRecording(width: number, height: number): Promise<void> {
  if (recorder && !recorder.exited) {
    throw new HttpError(400, { status: 'error', message: 'Recording is already in progress.' });
  }
  fs.rmSync(RECORDING_PATH, { force: true });
  const args = ['-y', '-f', 'x11grab', '-draw_mouse', '1', '-s', `${width}x${height}`, '-i', ':0.0',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-r', '30', RECORDING_PATH];
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const state = { process: child, stderr: '', exited: false };
  recorder = state;
  child.stderr!.on('data', (chunk: Buffer) => (state.stderr = (state.stderr + chunk.toString()).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.on('exit', () => {
    state.exited = true;
    resolve();
  }));
  child.on('error', () => (state.exited = true));
  // OSWorld sleeps 2 s and checks ffmpeg is alive; here: until ffmpeg reports encoding frames (or dies), ≤ 3 s.
  const deadline = Date.now() + 3_000;
  while (Date.now() < deadline && !state.exited && !/frame=\s*\d+/.test(state.stderr)) {
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  if (state.exited) {
    throw new HttpError(500, {
      status: 'error',
      message: `Failed to start recording. ffmpeg terminated unexpectedly. Error: ${state.stderr}`,
    });
  }
}

/** Stops ffmpeg (SIGINT, then kill after 15 s) and returns the mp4 path. */
export async function endRecording(): Promise<string> {
  const state = recorder;
  recorder = undefined;
  if (!state || state.exited) {
    throw new HttpError(400, { status: 'error', message: 'No recording in progress to stop.' });
  }
  const exited = new Promise<void>((resolve) => {
    if (state.exited) resolve();
    state.process.on('exit', () => resolve());
  });
  state.process.kill('SIGINT');
  const timer = setTimeout(() => state.process.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
  const size = fs.existsSync(RECORDING_PATH) ? fs.statSync(RECORDING_PATH).size : 0;
  if (size === 0) {
    throw new HttpError(500, `Recording failed. The output file is missing or empty. ffmpeg error: ${state.stderr}`);
  }
  return RECORDING_PATH;
}

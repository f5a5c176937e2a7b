// OSWorld's in-VM HTTP protocol (desktop_env/server/main.py), endpoint for endpoint, with the same request and
// response shapes. Each handler gets the parsed request and answers through `res`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { accessibilityTree, terminalOutput } from './accessibility.ts';
import { HttpError, type formBody, sendBytes, sendJson, sendText, str } from './http.ts';
import {
  CommandTimeout,
  HOME,
  expandPath,
  expandUser,
  launch,
  parseCommand,
  run,
  type RunResult,
} from './process.ts';
import { pythonStr } from '../src/python/repr.ts';
import { endRecording, startRecording } from './recording.ts';
import { cursorPosition, screenSize, screenshotPng, windowSize } from './screen.ts';
import { waitForWindow, windowAction, listWindows } from './windows.ts';

export interface Request {
  req: IncomingMessage;
  body: Buffer;
  json: () => Record<string, unknown>;
  form: () => ReturnType<typeof formBody>;
}

type Handler = (request: Request, res: ServerResponse) => Promise<void>;

const EXECUTE_TIMEOUT_MS = 120_000;

async function execute({ json }: Request, res: ServerResponse): Promise<void> {
  try {
    const result = await run(parseCommand(json()), { timeoutMs: EXECUTE_TIMEOUT_MS });
    sendJson(res, 200, { status: 'success', output: result.stdout, error: result.stderr, returncode: result.returncode });
  } catch (error) {
    sendJson(res, 500, { status: 'error', message: (error as Error).message });
  }
}

async function executeWithVerification({ json }: Request, res: ServerResponse): Promise<void> {
  const body = json();
  const verification = (body.verification ?? {}) as { window_exists?: string; command_success?: string };
  const maxWait = Number(body.max_wait_time ?? 10);
  const interval = Number(body.check_interval ?? 1);
  let result: RunResult;
  try {
    result = await run(parseCommand(body), { timeoutMs: EXECUTE_TIMEOUT_MS });
  } catch (error) {
    return sendJson(res, 500, { status: 'error', message: (error as Error).message });
  }
  const base = { output: result.stdout, error: result.stderr, returncode: result.returncode };
  if (!verification || Object.keys(verification).length === 0) return sendJson(res, 200, { status: 'success', ...base });
  const start = Date.now();
  while ((Date.now() - start) / 1000 < maxWait) {
    let passed = true;
    if (verification.window_exists !== undefined) {
      const wanted = String(verification.window_exists).toLowerCase();
      const titles = (await listWindows()).map((w) => w.title.toLowerCase());
      if (!titles.some((title) => title.includes(wanted))) passed = false;
    }
    if (verification.command_success !== undefined) {
      const check = await run({ argv: [String(verification.command_success)], shell: true }, { timeoutMs: 5_000 }).catch(
        () => undefined,
      );
      if (check?.returncode !== 0) passed = false;
    }
    if (passed) {
      return sendJson(res, 200, { status: 'success', ...base, verification: 'passed', wait_time: (Date.now() - start) / 1000 });
    }
    await new Promise((resolve) => setTimeout(resolve, interval * 1000));
  }
  sendJson(res, 500, { status: 'verification_failed', ...base, verification: 'failed', wait_time: maxWait });
}

async function launchApp({ json }: Request, res: ServerResponse): Promise<void> {
  try {
    const command = parseCommand(json());
    await launch(command);
    const raw = json().command;
    const shown = command.shell ? (typeof raw === 'string' ? raw : pythonStr(command.argv)) : command.argv.join(' ');
    sendText(res, 200, `${shown} launched successfully`);
  } catch (error) {
    sendJson(res, 500, { status: 'error', message: (error as Error).message });
  }
}

async function screenshot(_request: Request, res: ServerResponse): Promise<void> {
  sendBytes(res, await screenshotPng(), 'image/png');
}

/** Upper bound of `?time_limit_ms=` (the evaluation's complete walk asks for 120 s). */
const MAX_A11Y_TIME_LIMIT_MS = 300_000;

/** `GET /accessibility[?time_limit_ms=N]`: N (1…300000) replaces the walk's default 10 s bound for this request. */
async function accessibility({ req }: Request, res: ServerResponse): Promise<void> {
  const raw = new URL(req.url ?? '/', 'http://localhost').searchParams.get('time_limit_ms');
  const timeLimitMs = raw === null ? undefined : Number(raw);
  if (timeLimitMs !== undefined && !(Number.isInteger(timeLimitMs) && timeLimitMs >= 1 && timeLimitMs <= MAX_A11Y_TIME_LIMIT_MS)) {
    throw new HttpError(400, { status: 'error', message: `time_limit_ms must be an integer from 1 to ${MAX_A11Y_TIME_LIMIT_MS} (got ${raw})` });
  }
  const tree = await accessibilityTree({ timeLimitMs });
  // How many nodes were read and whether a bound cut the walk short (for tests and benchmarks).
  res.setHeader('x-deskbench-a11y-nodes', String(tree.nodes));
  res.setHeader('x-deskbench-a11y-truncated', String(tree.truncated));
  sendJson(res, 200, { AT: tree.xml });
}

async function terminal(_request: Request, res: ServerResponse): Promise<void> {
  try {
    sendJson(res, 200, { output: await terminalOutput(), status: 'success' });
  } catch (error) {
    sendJson(res, 500, { status: 'error', message: (error as Error).message });
  }
}

async function screenSizeEndpoint(_request: Request, res: ServerResponse): Promise<void> {
  sendJson(res, 200, await screenSize());
}

async function windowSizeEndpoint({ form }: Request, res: ServerResponse): Promise<void> {
  const name = form().get('app_class_name')?.data.toString('utf8');
  if (!name) throw new HttpError(400, { error: 'app_class_name is required' });
  const size = await windowSize(name);
  // OSWorld's view returns nothing when no window matches: an empty answer.
  if (size) sendJson(res, 200, size);
  else sendText(res, 200, '');
}

async function cursorPositionEndpoint(_request: Request, res: ServerResponse): Promise<void> {
  sendJson(res, 200, await cursorPosition());
}

async function platformEndpoint(_request: Request, res: ServerResponse): Promise<void> {
  sendText(res, 200, 'Linux');
}

async function desktopPath(_request: Request, res: ServerResponse): Promise<void> {
  const desktop = path.join(HOME, 'Desktop');
  if (fs.existsSync(desktop)) sendJson(res, 200, { desktop_path: desktop });
  else sendJson(res, 404, { error: 'Unsupported operating system or desktop path not found' });
}

async function gsettingsPictureUri(): Promise<string | undefined> {
  const result = await run(
    { argv: ['gsettings', 'get', 'org.gnome.desktop.background', 'picture-uri'], shell: false },
    { timeoutMs: 10_000 },
  ).catch(() => undefined);
  if (result?.returncode !== 0) return undefined;
  return result.stdout.trim().replace('file://', '').replace(/'/g, '') || undefined;
}

async function wallpaper(_request: Request, res: ServerResponse): Promise<void> {
  const file = await gsettingsPictureUri();
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    return sendJson(res, 404, { error: 'Unable to find wallpaper path' });
  }
  sendBytes(res, fs.readFileSync(file), 'image/png');
}

async function changeWallpaper({ json }: Request, res: ServerResponse): Promise<void> {
  const given = str(json().path);
  if (!given) return sendText(res, 400, 'Path not supplied!');
  const file = path.resolve(HOME, expandPath(given));
  if (!fs.existsSync(file)) return sendText(res, 404, `File not found: ${file}`);
  const result = await run(
    { argv: ['gsettings', 'set', 'org.gnome.desktop.background', 'picture-uri', `file://${file}`], shell: false },
    { timeoutMs: 10_000 },
  );
  if (result.returncode !== 0) return sendText(res, 500, `Failed to change wallpaper. Error: ${result.stderr}`);
  sendText(res, 200, 'Wallpaper changed successfully');
}

interface TreeNode {
  type: 'directory' | 'file';
  name: string;
  children?: TreeNode[];
}

function directoryTree(dir: string, depth = 0): TreeNode | { error: string } {
  const tree: TreeNode = { type: 'directory', name: path.basename(dir), children: [] };
  try {
    for (const entry of fs.readdirSync(dir)) {
      const full = path.join(dir, entry);
      let isDir = false;
      try {
        isDir = fs.statSync(full).isDirectory();
      } catch {
        // dangling symlink: a file, as os.path.isdir says
      }
      // Depth bound: a symlink loop would otherwise recurse forever.
      if (isDir && depth < 64) tree.children!.push(directoryTree(full, depth + 1) as TreeNode);
      else tree.children!.push({ type: 'file', name: entry });
    }
  } catch (error) {
    return { error: (error as Error).message };
  }
  return tree;
}

async function listDirectory({ json }: Request, res: ServerResponse): Promise<void> {
  const body = json();
  if (!('path' in body)) return sendJson(res, 400, { error: "Missing 'path' parameter" });
  const dir = expandUser(str(body.path));
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    return sendJson(res, 400, { error: 'The provided path is not a directory' });
  }
  sendJson(res, 200, { directory_tree: directoryTree(dir) });
}

async function getFile({ form }: Request, res: ServerResponse): Promise<void> {
  const given = form().get('file_path')?.data.toString('utf8');
  if (!given) return sendJson(res, 400, { error: 'file_path is required' });
  const file = path.resolve(HOME, expandPath(given));
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return sendJson(res, 404, { error: 'File not found' });
  }
  if (!stat.isFile()) return sendJson(res, 404, { error: 'File not found' });
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': stat.size,
    'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(path.basename(file))}`,
  });
  await new Promise<void>((resolve, reject) => {
    fs.createReadStream(file).on('error', reject).pipe(res).on('finish', resolve).on('error', reject);
  });
}

async function upload({ form }: Request, res: ServerResponse): Promise<void> {
  const fields = form();
  const target = fields.get('file_path')?.data.toString('utf8');
  const data = fields.get('file_data');
  if (!target || !data) return sendJson(res, 400, { error: 'file_path and file_data are required' });
  const file = path.resolve(HOME, expandPath(target));
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, data.data);
  } catch (error) {
    return sendJson(res, 500, { error: `Failed to save ${file}: ${(error as Error).message}` });
  }
  sendText(res, 200, `File Uploaded: ${data.data.length} bytes`);
}

async function downloadFile({ json }: Request, res: ServerResponse): Promise<void> {
  const body = json();
  const url = str(body.url);
  const given = str(body.path);
  if (!url || !given) return sendText(res, 400, 'Path or URL not supplied!');
  const file = path.resolve(HOME, expandPath(given));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(300_000) });
      if (!response.ok) throw new Error(`${response.status} ${response.statusText} for url: ${url}`);
      const data = Buffer.from(await response.arrayBuffer());
      const expected = Number(response.headers.get('content-length') ?? NaN);
      if (Number.isFinite(expected) && response.headers.get('content-encoding') === null && expected !== data.length) {
        throw new Error(`incomplete download: ${data.length} of ${expected} bytes`);
      }
      fs.writeFileSync(file, data);
      return sendText(res, 200, 'File downloaded successfully');
    } catch (error) {
      lastError = error;
    }
  }
  sendText(res, 500, `Failed to download ${url}. No retries left. Error: ${(lastError as Error)?.message}`);
}

async function openFile({ json }: Request, res: ServerResponse): Promise<void> {
  const body = json();
  const given = str(body.path);
  if (!given) return sendText(res, 400, 'Path not supplied!');
  const timeoutS = Number(body.timeout ?? 1800);
  const file = path.resolve(HOME, expandPath(given));
  let names: string[];
  if (fs.existsSync(file)) {
    await launch({ argv: ['xdg-open', file], shell: false });
    const base = path.basename(file);
    names = [base, base.slice(0, base.length - path.extname(base).length)];
  } else {
    const which = await run({ argv: ['which', given], shell: false }, { timeoutMs: 5_000 });
    if (which.returncode !== 0) return sendText(res, 404, `Application/file not found: ${given}`);
    await launch({ argv: [given], shell: false });
    names = [given];
  }
  if (await waitForWindow(names, timeoutS * 1000)) sendText(res, 200, 'File opened and window activated successfully');
  else sendText(res, 500, `Failed to find window for ${names[0]} within ${timeoutS} seconds.`);
}

function windowQuery(body: Record<string, unknown>) {
  return { name: str(body.window_name), strict: Boolean(body.strict), byClass: Boolean(body.by_class) };
}

async function activateWindow({ json }: Request, res: ServerResponse): Promise<void> {
  const { name, strict, byClass } = windowQuery(json());
  if (!name) return sendText(res, 400, 'window_name required');
  await windowAction('a', name, strict, byClass);
  sendText(res, 200, 'Window activated successfully');
}

async function closeWindow({ json }: Request, res: ServerResponse): Promise<void> {
  const { name, strict, byClass } = windowQuery(json());
  if (!name) return sendText(res, 400, 'window_name required');
  await windowAction('c', name, strict, byClass);
  sendText(res, 200, 'Window closed successfully');
}

async function startRecordingEndpoint(_request: Request, res: ServerResponse): Promise<void> {
  const { width, height } = await screenSize();
  await startRecording(width, height);
  sendJson(res, 200, { status: 'success', message: 'Started recording successfully.' });
}

async function endRecordingEndpoint(_request: Request, res: ServerResponse): Promise<void> {
  const file = await endRecording();
  sendBytes(res, fs.readFileSync(file), 'video/mp4', { 'content-disposition': 'attachment; filename=recording.mp4' });
}

async function runPython({ json }: Request, res: ServerResponse): Promise<void> {
  const code = str(json().code);
  if (!code) return sendJson(res, 400, { status: 'error', message: 'Code not supplied!' });
  const file = `/tmp/python_exec_${randomUUID().replace(/-/g, '')}.py`;
  fs.writeFileSync(file, code);
  try {
    const result = await run({ argv: ['/usr/bin/python3', file], shell: false }, { timeoutMs: 30_000, cwd: '/tmp' });
    let error = result.stderr;
    if (result.returncode !== 0 && !error) error = `Process exited with code ${result.returncode}`;
    const message = result.stdout && error ? `${result.stdout}\n${error}` : result.stdout || error;
    sendJson(res, 200, {
      status: result.returncode === 0 ? 'success' : 'error',
      message,
      need_more: false,
      output: result.stdout,
      error,
      return_code: result.returncode,
    });
  } catch (error) {
    const timeout = error instanceof CommandTimeout;
    sendJson(res, 500, {
      status: 'error',
      message: timeout ? 'Execution timeout: Code took too long to execute' : `Execution error: ${(error as Error).message}`,
      error: timeout ? 'TimeoutExpired' : (error as Error).message,
      need_more: false,
      output: null,
    });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function runBashScript({ json }: Request, res: ServerResponse): Promise<void> {
  const body = json();
  const script = str(body.script);
  const timeoutS = Number(body.timeout ?? 100);
  if (!script) return sendJson(res, 400, { status: 'error', output: 'Script not supplied!', error: '', returncode: -1 });
  let cwd: string | undefined;
  if (body.working_dir) {
    cwd = expandUser(str(body.working_dir));
    if (!fs.existsSync(cwd)) {
      return sendJson(res, 400, { status: 'error', output: `Working directory does not exist: ${cwd}`, error: '', returncode: -1 });
    }
  }
  const file = `/tmp/bash_exec_${randomUUID().replace(/-/g, '')}.sh`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  try {
    const result = await run({ argv: ['/bin/bash', file], shell: false }, { timeoutMs: timeoutS * 1000, cwd, mergeStderr: true });
    sendJson(res, 200, {
      status: result.returncode === 0 ? 'success' : 'error',
      output: result.stdout,
      error: '',
      returncode: result.returncode,
    });
  } catch (error) {
    const message =
      error instanceof CommandTimeout ? `Script execution timed out after ${timeoutS} seconds` : (error as Error).message;
    sendJson(res, 500, { status: 'error', output: message, error: '', returncode: -1 });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** Routes: "METHOD /path" → handler. */
export const ROUTES: Record<string, Handler> = {
  'POST /execute': execute,
  'POST /setup/execute': execute,
  'POST /execute_with_verification': executeWithVerification,
  'POST /setup/execute_with_verification': executeWithVerification,
  'POST /setup/launch': launchApp,
  'GET /screenshot': screenshot,
  'GET /accessibility': accessibility,
  'GET /terminal': terminal,
  'POST /screen_size': screenSizeEndpoint,
  'POST /window_size': windowSizeEndpoint,
  'GET /cursor_position': cursorPositionEndpoint,
  'GET /platform': platformEndpoint,
  'POST /desktop_path': desktopPath,
  'POST /wallpaper': wallpaper,
  'POST /list_directory': listDirectory,
  'POST /file': getFile,
  'POST /setup/upload': upload,
  'POST /setup/change_wallpaper': changeWallpaper,
  'POST /setup/download_file': downloadFile,
  'POST /setup/open_file': openFile,
  'POST /setup/activate_window': activateWindow,
  'POST /setup/close_window': closeWindow,
  'POST /start_recording': startRecordingEndpoint,
  'POST /end_recording': endRecordingEndpoint,
  'POST /run_python': runPython,
  'POST /run_bash_script': runBashScript,
};

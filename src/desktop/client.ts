// One typed client for OSWorld's in-VM HTTP protocol (port 5000), used by setup steps, getters, the agent loop and
// tests. It speaks to our container's control server and to a real OSWorld VM alike; the token is sent when given.
import { DeskbenchError, type ErrorCode } from '../errors.ts';

export interface ExecResult {
  status: string;
  output: string;
  error: string;
  returncode: number;
}

export interface DirectoryTree {
  type: 'directory' | 'file';
  name: string;
  children?: DirectoryTree[];
}

export interface WindowQuery {
  window_name: string;
  strict?: boolean;
  by_class?: boolean;
}

export interface Size {
  width: number;
  height: number;
}

export class DesktopRequestError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DESKTOP_REQUEST';
  readonly endpoint: string;
  readonly status: number;
  readonly body: string;
  constructor(endpoint: string, status: number, body: string) {
    super(`desktop ${endpoint} answered HTTP ${status}: ${body.slice(0, 500)}`);
    this.endpoint = endpoint;
    this.status = status;
    this.body = body;
  }
}

/**
 * A desktop is not there to use: a remote desktop, the run's desktop pool or the desktop's Chrome does not answer, or
 * not as it must (no JSON, no DevTools endpoint), or the pool is closing. DesktopRequestError is an answer's status.
 */
export class DesktopUnavailableError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DESKTOP_UNAVAILABLE';
}

export interface DesktopClientOptions {
  /** Base URL of the control server, e.g. http://127.0.0.1:32768 */
  url: string;
  /** Bearer token; our container requires it, an OSWorld VM ignores it. */
  token?: string;
  /** Default per-request timeout in ms (execute uses its own, longer one). */
  timeoutMs?: number;
}

type Body = { json: unknown } | { form: Record<string, string> } | { multipart: FormData } | undefined;

export class DesktopClient {
  readonly url: string;
  readonly token: string | undefined;
  private readonly timeoutMs: number;

  constructor(options: DesktopClientOptions) {
    this.url = options.url.replace(/\/+$/, '');
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  /** Low-level request; throws DesktopRequestError on a non-2xx answer. */
  async request(
    method: 'GET' | 'POST',
    path: string,
    body?: Body,
    timeoutMs = this.timeoutMs,
    signal?: AbortSignal,
  ): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: BodyInit | undefined;
    if (body && 'json' in body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body && 'form' in body) {
      payload = new URLSearchParams(body.form);
    } else if (body && 'multipart' in body) {
      payload = body.multipart;
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetch(this.url + path, {
      method,
      headers,
      body: payload,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) throw new DesktopRequestError(path, response.status, await response.text().catch(() => ''));
    return response;
  }

  private async json<T>(method: 'GET' | 'POST', path: string, body?: Body, timeoutMs?: number): Promise<T> {
    return (await (await this.request(method, path, body, timeoutMs)).json()) as T;
  }

  // --- observation -------------------------------------------------------------------------------------------------

  /** PNG of the whole screen with the cursor drawn. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from(await (await this.request('GET', '/screenshot')).arrayBuffer());
  }

  /**
   * Accessibility tree as OSWorld's XML string. The server bounds its walk to 10 s unless `timeLimitMs` says otherwise
   * (evaluation asks for a complete tree: on a loaded machine a big app takes longer than that to answer).
   */
  async accessibilityTree(options: { timeLimitMs?: number } = {}): Promise<string> {
    if (options.timeLimitMs === undefined) return (await this.json<{ AT: string }>('GET', '/accessibility')).AT;
    const path = `/accessibility?time_limit_ms=${options.timeLimitMs}`;
    return (await this.json<{ AT: string }>('GET', path, undefined, Math.max(this.timeoutMs, options.timeLimitMs + 30_000))).AT;
  }

  /** Text of the focused gnome-terminal, or null when no terminal is active. */
  async terminalOutput(): Promise<string | null> {
    return (await this.json<{ output: string | null }>('GET', '/terminal')).output;
  }

  async screenSize(): Promise<Size> {
    return this.json<Size>('POST', '/screen_size');
  }

  /** Size of the first window whose WM_CLASS matches, or null. */
  async windowSize(appClassName: string): Promise<Size | null> {
    const response = await this.request('POST', '/window_size', { form: { app_class_name: appClassName } });
    const text = await response.text();
    return text.trim() ? (JSON.parse(text) as Size) : null;
  }

  async cursorPosition(): Promise<[number, number]> {
    return this.json<[number, number]>('GET', '/cursor_position');
  }

  async platform(): Promise<string> {
    return (await (await this.request('GET', '/platform')).text()).trim();
  }

  async desktopPath(): Promise<string> {
    return (await this.json<{ desktop_path: string }>('POST', '/desktop_path')).desktop_path;
  }

  async listDirectory(path: string): Promise<DirectoryTree> {
    return (await this.json<{ directory_tree: DirectoryTree }>('POST', '/list_directory', { json: { path } }))
      .directory_tree;
  }

  /** The wallpaper image bytes, or null when none is set. */
  async wallpaper(): Promise<Buffer | null> {
    try {
      return Buffer.from(await (await this.request('POST', '/wallpaper')).arrayBuffer());
    } catch (error) {
      if (error instanceof DesktopRequestError && error.status === 404) return null;
      throw error;
    }
  }

  // --- files -------------------------------------------------------------------------------------------------------

  /** A file's bytes, or null when it does not exist (`~` and `$VARS` are expanded by the server). */
  async readFile(path: string): Promise<Buffer | null> {
    try {
      return Buffer.from(await (await this.request('POST', '/file', { form: { file_path: path } })).arrayBuffer());
    } catch (error) {
      if (error instanceof DesktopRequestError && error.status === 404) return null;
      throw error;
    }
  }

  /** Writes bytes to a path in the desktop, creating parent folders. */
  async upload(path: string, data: Uint8Array, timeoutMs = 600_000): Promise<void> {
    const form = new FormData();
    form.set('file_path', path);
    form.set('file_data', new Blob([new Uint8Array(data)]), path.split('/').pop() ?? 'file');
    await this.request('POST', '/setup/upload', { multipart: form }, timeoutMs);
  }

  // --- commands ----------------------------------------------------------------------------------------------------

  /** Runs a command to completion (server timeout 120 s). A string without shell is shlex-split by the server. */
  async execute(command: string | string[], options: { shell?: boolean; setup?: boolean } = {}): Promise<ExecResult> {
    const path = options.setup ? '/setup/execute' : '/execute';
    return this.json<ExecResult>('POST', path, { json: { command, shell: options.shell ?? false } }, 130_000);
  }

  /** Runs Python code in the desktop's python3 (30 s). */
  async runPython(code: string): Promise<{ status: string; output: string; error: string; return_code: number }> {
    return this.json('POST', '/run_python', { json: { code } }, 40_000);
  }

  async runBashScript(
    script: string,
    options: { timeout?: number; working_dir?: string } = {},
  ): Promise<{ status: string; output: string; error: string; returncode: number }> {
    const timeout = options.timeout ?? 100;
    return this.json('POST', '/run_bash_script', { json: { script, ...options, timeout } }, (timeout + 10) * 1000);
  }

  /** Fire-and-forget start of a program. */
  async launch(command: string | string[], shell = false): Promise<void> {
    await this.request('POST', '/setup/launch', { json: { command, shell } });
  }

  /** Opens a file (or starts an app by name) and waits until a window titled with its name shows. */
  async openFile(path: string, timeoutMs = 120_000): Promise<void> {
    await this.request('POST', '/setup/open_file', { json: { path, timeout: Math.round(timeoutMs / 1000) } }, timeoutMs + 10_000);
  }

  async activateWindow(query: WindowQuery): Promise<void> {
    await this.request('POST', '/setup/activate_window', { json: query });
  }

  async closeWindow(query: WindowQuery): Promise<void> {
    await this.request('POST', '/setup/close_window', { json: query });
  }

  async changeWallpaper(path: string): Promise<void> {
    await this.request('POST', '/setup/change_wallpaper', { json: { path } });
  }

  /** Downloads a URL from inside the desktop (needs the desktop to reach it). */
  async downloadFile(url: string, path: string): Promise<void> {
    await this.request('POST', '/setup/download_file', { json: { url, path } }, 310_000);
  }

  async executeWithVerification(body: {
    command: string | string[];
    shell?: boolean;
    verification: { window_exists?: string; command_success?: string };
    max_wait_time?: number;
    check_interval?: number;
  }): Promise<{ status: string; verification?: string; wait_time?: number }> {
    const wait = body.max_wait_time ?? 10;
    return this.json('POST', '/setup/execute_with_verification', { json: body }, (wait + 130) * 1000);
  }

  // --- recording ---------------------------------------------------------------------------------------------------

  async startRecording(): Promise<void> {
    await this.request('POST', '/start_recording');
  }

  /** Stops the recording and returns the mp4 bytes. */
  async endRecording(): Promise<Buffer> {
    return Buffer.from(await (await this.request('POST', '/end_recording', undefined, 60_000)).arrayBuffer());
  }
}

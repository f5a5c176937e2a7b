// The screen through one shared X11 connection (reconnected when lost): screenshots with the cursor, pointer
// position, screen and window sizes.
import { encodePng } from './png.ts';
import { X11Connection } from './x11.ts';

let connection: Promise<X11Connection> | undefined;

function x11(): Promise<X11Connection> {
  connection ??= X11Connection.connect().catch((error: unknown) => {
    connection = undefined;
    throw error;
  });
  return connection;
}

async function withX11<T>(use: (x: X11Connection) => Promise<T>): Promise<T> {
  const x = await x11();
  try {
    return await use(x);
  } catch (error) {
    if (/connection closed|EPIPE|ECONNRESET/.test(String(error))) {
      x.close();
      connection = undefined;
    }
    throw error;
  }
}

/** PNG of the whole screen with the cursor drawn, like OSWorld's pyautogui screenshot + cursor paste. */
export function screenshotPng(): Promise<Buffer> {
  return withX11(async (x) => {
    const [image, cursor] = await Promise.all([x.getImage(), x.cursorImage().catch(() => undefined)]);
    return encodePng(image, cursor);
  });
}

export function cursorPosition(): Promise<[number, number]> {
  return withX11(async (x) => {
    const { x: px, y: py } = await x.queryPointer();
    return [px, py];
  });
}

export function screenSize(): Promise<{ width: number; height: number }> {
  return withX11(async (x) => ({ width: x.width, height: x.height }));
}

/** Size of the first managed window whose WM_CLASS instance or class equals `name` (case-insensitive). */
export function windowSize(name: string): Promise<{ width: number; height: number } | undefined> {
  return withX11(async (x) => {
    for (const id of await x.clientWindows()) {
      const wmClass = await x.getProperty(id, 'WM_CLASS').catch(() => undefined);
      if (!wmClass) continue;
      const names = wmClass.toString('latin1').split('\0').filter(Boolean).map((n) => n.toLowerCase());
      if (names.includes(name.toLowerCase())) return x.getGeometry(id);
    }
    return undefined;
  });
}

/** True once X answers and a window manager has announced itself (_NET_SUPPORTING_WM_CHECK). */
export async function displayReady(): Promise<boolean> {
  try {
    return await withX11(async (x) => (await x.getProperty(x.root, '_NET_SUPPORTING_WM_CHECK')) !== undefined);
  } catch {
    return false;
  }
}

// A minimal D-Bus client (unix socket, EXTERNAL auth, little-endian messages) with pipelined method calls: the
// accessibility walker keeps hundreds of calls in flight. Decodes any reply signature; encodes the argument types
// the walker sends (strings, object paths, int32, uint32).
import net from 'node:net';

export type DBusValue = string | number | bigint | boolean | DBusValue[] | { [key: string]: DBusValue };

class DBusError extends Error {
  override name = 'DBusError';
}

interface Waiter {
  resolve: (body: DBusValue[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

const align = (n: number, a: number) => (n + a - 1) & ~(a - 1);

/** Writes D-Bus wire values into a growing buffer (alignment relative to the message start). */
class Writer {
  private buf = Buffer.alloc(256);
  length = 0;

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const bigger = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }

  pad(a: number): void {
    const to = align(this.length, a);
    this.ensure(to - this.length);
    this.buf.fill(0, this.length, to);
    this.length = to;
  }

  byte(v: number): void {
    this.ensure(1);
    this.buf[this.length++] = v;
  }

  u32(v: number): void {
    this.pad(4);
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.length);
    this.length += 4;
  }

  i32(v: number): void {
    this.pad(4);
    this.ensure(4);
    this.buf.writeInt32LE(v, this.length);
    this.length += 4;
  }

  string(v: string): void {
    const bytes = Buffer.from(v, 'utf8');
    this.u32(bytes.length);
    this.ensure(bytes.length + 1);
    bytes.copy(this.buf, this.length);
    this.length += bytes.length;
    this.buf[this.length++] = 0;
  }

  signature(v: string): void {
    this.byte(v.length);
    this.ensure(v.length + 1);
    this.buf.write(v, this.length, 'latin1');
    this.length += v.length;
    this.buf[this.length++] = 0;
  }

  /** One argument of a basic type. */
  value(type: string, v: DBusValue): void {
    if (type === 's' || type === 'o') this.string(String(v));
    else if (type === 'g') this.signature(String(v));
    else if (type === 'u') this.u32(Number(v));
    else if (type === 'i') this.i32(Number(v));
    else throw new Error(`dbus: cannot encode type ${type}`);
  }

  bytes(): Buffer {
    return this.buf.subarray(0, this.length);
  }

  patchU32(offset: number, v: number): void {
    this.buf.writeUInt32LE(v, offset);
  }
}

/** The fixed-size basic types (other than the byte): their size and how to read one, little-endian. */
const FIXED_TYPES: Record<string, { size: number; read: (b: Buffer, offset: number) => DBusValue }> = {
  b: { size: 4, read: (b, o) => b.readUInt32LE(o) !== 0 },
  u: { size: 4, read: (b, o) => b.readUInt32LE(o) },
  h: { size: 4, read: (b, o) => b.readUInt32LE(o) },
  i: { size: 4, read: (b, o) => b.readInt32LE(o) },
  n: { size: 2, read: (b, o) => b.readInt16LE(o) },
  q: { size: 2, read: (b, o) => b.readUInt16LE(o) },
  x: { size: 8, read: (b, o) => b.readBigInt64LE(o) },
  t: { size: 8, read: (b, o) => b.readBigUInt64LE(o) },
  d: { size: 8, read: (b, o) => b.readDoubleLE(o) },
};

/** Reads D-Bus wire values of any signature. Offsets are relative to the message start (alignment base). */
class Reader {
  private readonly buf: Buffer;
  offset: number;

  constructor(buf: Buffer, offset: number) {
    this.buf = buf;
    this.offset = offset;
  }

  read(sig: string, i = 0): [DBusValue, number] {
    const t = sig[i];
    const b = this.buf;
    const fixed = FIXED_TYPES[t];
    if (fixed) {
      // Fixed-size values are aligned to their own size.
      this.offset = align(this.offset, fixed.size);
      const v = fixed.read(b, this.offset);
      this.offset += fixed.size;
      return [v, i + 1];
    }
    switch (t) {
      case 'y':
        return [b[this.offset++], i + 1];
      case 's':
      case 'o': {
        this.offset = align(this.offset, 4);
        const n = b.readUInt32LE(this.offset);
        const v = b.toString('utf8', this.offset + 4, this.offset + 4 + n);
        this.offset += 4 + n + 1;
        return [v, i + 1];
      }
      case 'g': {
        const n = b[this.offset];
        const v = b.toString('latin1', this.offset + 1, this.offset + 1 + n);
        this.offset += 1 + n + 1;
        return [v, i + 1];
      }
      case 'v': {
        const [inner] = this.read('g');
        const [v] = this.read(inner as string);
        return [v, i + 1];
      }
      case '(': {
        this.offset = align(this.offset, 8);
        const items: DBusValue[] = [];
        let j = i + 1;
        while (sig[j] !== ')') {
          const [v, next] = this.read(sig, j);
          items.push(v);
          j = next;
        }
        return [items, j + 1];
      }
      case 'a': {
        this.offset = align(this.offset, 4);
        const n = b.readUInt32LE(this.offset);
        this.offset += 4;
        const elementEnd = skipType(sig, i + 1);
        const elementSig = sig.slice(i + 1, elementEnd);
        const isDict = elementSig[0] === '{';
        this.offset = align(this.offset, alignmentOf(elementSig[0]));
        const end = this.offset + n;
        if (isDict) {
          const dict: { [key: string]: DBusValue } = {};
          while (this.offset < end) {
            this.offset = align(this.offset, 8);
            const [key, afterKey] = this.read(elementSig, 1);
            const [value] = this.read(elementSig, afterKey);
            dict[String(key)] = value;
          }
          return [dict, elementEnd];
        }
        const items: DBusValue[] = [];
        while (this.offset < end) items.push(this.read(elementSig)[0]);
        return [items, elementEnd];
      }
      default:
        throw new Error(`dbus: cannot decode type '${t}' in '${sig}'`);
    }
  }

  readAll(sig: string): DBusValue[] {
    const values: DBusValue[] = [];
    let i = 0;
    while (i < sig.length) {
      const [v, next] = this.read(sig, i);
      values.push(v);
      i = next;
    }
    return values;
  }
}

function alignmentOf(t: string): number {
  return ({ y: 1, g: 1, v: 1, n: 2, q: 2, x: 8, t: 8, d: 8, '(': 8, '{': 8 } as Record<string, number>)[t] ?? 4;
}

/** Index just past the single complete type starting at `i`. */
function skipType(sig: string, i: number): number {
  const t = sig[i];
  if (t === 'a') return skipType(sig, i + 1);
  if (t === '(' || t === '{') {
    const close = t === '(' ? ')' : '}';
    let j = i + 1;
    while (sig[j] !== close) j = skipType(sig, j);
    return j + 1;
  }
  return i + 1;
}

export class DBusConnection {
  private readonly socket: net.Socket;
  private serial = 0;
  private readonly waiters = new Map<number, Waiter>();
  private chunks: Buffer[] = [];
  private buffered = 0;
  private closed: Error | undefined;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      this.closed = error;
      for (const w of this.waiters.values()) {
        clearTimeout(w.timer);
        w.reject(error);
      }
      this.waiters.clear();
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new DBusError('D-Bus connection closed')));
  }

  /** Connects to a `unix:path=...` (or `unix:abstract=...`) address, authenticates and says Hello. */
  static async connect(address: string): Promise<DBusConnection> {
    const entry = address.split(';')[0];
    const params = new Map(
      entry
        .slice(entry.indexOf(':') + 1)
        .split(',')
        .map((kv) => [kv.slice(0, kv.indexOf('=')), decodeURIComponent(kv.slice(kv.indexOf('=') + 1))] as const),
    );
    const path = params.get('path') ?? (params.has('abstract') ? `\0${params.get('abstract')}` : undefined);
    if (!path) throw new DBusError(`unsupported D-Bus address ${address}`);
    const socket = net.createConnection(path);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const uid = Buffer.from(String(process.getuid?.() ?? 0)).toString('hex');
    socket.write(`\0AUTH EXTERNAL ${uid}\r\n`);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const onData = (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n')) {
          socket.off('data', onData);
          resolve(text);
        }
      };
      socket.on('data', onData);
      socket.once('error', reject);
    });
    if (!answer.startsWith('OK')) throw new DBusError(`D-Bus authentication refused: ${answer.trim()}`);
    socket.write('BEGIN\r\n');
    const connection = new DBusConnection(socket);
    await connection.call('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello');
    return connection;
  }

  close(): void {
    this.socket.destroy();
  }

  /** Sends a method call and resolves with the reply's body values. */
  call(
    destination: string,
    path: string,
    iface: string,
    member: string,
    signature = '',
    args: DBusValue[] = [],
    timeoutMs = 5_000,
  ): Promise<DBusValue[]> {
    if (this.closed) return Promise.reject(this.closed);
    const serial = ++this.serial;
    const body = new Writer();
    for (let k = 0; k < signature.length; k++) body.value(signature[k], args[k]);
    const message = new Writer();
    message.byte(0x6c); // 'l'
    message.byte(1); // METHOD_CALL
    message.byte(0x2); // NO_AUTO_START
    message.byte(1);
    message.u32(body.length);
    message.u32(serial);
    const arrayLengthAt = message.length;
    message.u32(0);
    message.pad(8);
    const fieldsStart = message.length;
    const field = (code: number, type: string, value: string) => {
      message.pad(8);
      message.byte(code);
      message.signature(type);
      message.value(type, value);
    };
    field(1, 'o', path);
    field(2, 's', iface);
    field(3, 's', member);
    field(6, 's', destination);
    if (signature) field(8, 'g', signature);
    message.patchU32(arrayLengthAt, message.length - fieldsStart);
    message.pad(8);
    const packet = Buffer.concat([message.bytes(), body.bytes()]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(serial);
        reject(new DBusError(`D-Bus call ${iface}.${member} timed out`));
      }, timeoutMs);
      this.waiters.set(serial, { resolve, reject, timer });
      this.socket.write(packet);
    });
  }

  private onData(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 16) {
      const data = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [data];
      if (data[0] !== 0x6c) throw new DBusError('big-endian D-Bus messages are not supported');
      const bodyLength = data.readUInt32LE(4);
      const fieldsLength = data.readUInt32LE(12);
      const total = align(16 + fieldsLength, 8) + bodyLength;
      if (data.length < total) return;
      const message = data.subarray(0, total);
      const rest = data.subarray(total);
      this.chunks = rest.length ? [rest] : [];
      this.buffered = rest.length;
      this.dispatch(message, fieldsLength, bodyLength);
    }
  }

  private dispatch(message: Buffer, fieldsLength: number, bodyLength: number): void {
    const type = message[1];
    if (type !== 2 && type !== 3) return; // signals and calls to us: ignored
    const fields = new Reader(message, 16);
    let replySerial = 0;
    let signature = '';
    let errorName = '';
    const fieldsEnd = 16 + fieldsLength;
    while (fields.offset < fieldsEnd) {
      fields.offset = align(fields.offset, 8);
      const code = message[fields.offset++];
      const [value] = fields.read('v');
      if (code === 5) replySerial = value as number;
      else if (code === 8) signature = value as string;
      else if (code === 4) errorName = value as string;
    }
    const waiter = this.waiters.get(replySerial);
    if (!waiter) return;
    this.waiters.delete(replySerial);
    clearTimeout(waiter.timer);
    try {
      const body = bodyLength ? new Reader(message, align(fieldsEnd, 8)).readAll(signature) : [];
      if (type === 3) waiter.reject(new DBusError(`${errorName}: ${body[0] ?? ''}`));
      else waiter.resolve(body);
    } catch (error) {
      waiter.reject(error as Error);
    }
  }
}

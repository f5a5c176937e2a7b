// A local HTTP server (127.0.0.1, random port) that answers API requests from a script of replies, and records
// every request it gets, so tests can check both what an agent sent and what it made of the answers.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A scripted reply: JSON (status 200 unless given), a raw body, or no answer at all. */
type Reply =
  | { status?: number; headers?: Record<string, string>; json: unknown }
  | { status?: number; headers?: Record<string, string>; raw: string; contentType?: string }
  | { hang: true };

export interface FakeApiServer {
  url: string;
  requests: RecordedRequest[];
  /** Queue replies; each request takes the next one (a request with none left gets a 599). */
  reply(...replies: Reply[]): void;
  close(): Promise<void>;
}

export async function startFakeApiServer(): Promise<FakeApiServer> {
  const requests: RecordedRequest[] = [];
  const queue: Reply[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: text ? JSON.parse(text) : undefined });
      const reply = queue.shift();
      if (!reply) return send(res, 599, { 'content-type': 'application/json' }, JSON.stringify({ error: 'no scripted reply left' }));
      if ('hang' in reply) return; // never answer: the client's deadline must end the request
      if ('json' in reply) return send(res, reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }, JSON.stringify(reply.json));
      return send(res, reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', ...reply.headers }, reply.raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => { queue.push(...replies); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, headers);
  res.end(body);
}

/** A real PNG screenshot of the given size: grey, with a red square at the centre. */
export async function screenshotPng(width = 1920, height = 1080): Promise<Buffer> {
  const square = await sharp({ create: { width: 40, height: 40, channels: 3, background: { r: 220, g: 30, b: 30 } } }).png().toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 90, g: 90, b: 90 } } })
    .composite([{ input: square, left: Math.round(width / 2) - 20, top: Math.round(height / 2) - 20 }])
    .png()
    .toBuffer();
}

/** Width and height of a base64 image sent in a request. */
export async function sizeOfBase64Image(data: string): Promise<{ width: number; height: number }> {
  const meta = await sharp(Buffer.from(data.replace(/^data:image\/\w+;base64,/, ''), 'base64')).metadata();
  return { width: meta.width!, height: meta.height! };
}

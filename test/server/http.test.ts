// The control server's request bodies and replies (server/http.ts), through a real HTTP server on 127.0.0.1: forms
// as fetch's FormData and URLSearchParams send them, JSON bodies as OSWorld's client sends them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpError, formBody, jsonBody, readBody, sendBytes, sendJson, sendText, str } from '../../server/http.ts';

describe('over HTTP', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    // /form answers with the fields it parsed (bytes as hex), /text and /bytes with the other reply helpers.
    server = http.createServer(async (req, res) => {
      const body = await readBody(req);
      if (req.url === '/form') {
        const fields = [...formBody(req, body).values()].map(({ name, filename, data }) => ({ name, filename, hex: data.toString('hex') }));
        return sendJson(res, 200, fields);
      }
      if (req.url === '/text') return sendText(res, 404, 'Nicht gefunden ✓');
      sendBytes(res, body, 'application/octet-stream', { 'x-length-seen': String(body.length) });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('readBody gets every byte of a large body, sendBytes returns it with its headers', async () => {
    const sent = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < sent.length; i++) sent[i] = (i * 7919) & 0xff;
    const response = await fetch(`${base}/bytes`, { method: 'POST', body: sent });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-length')).toBe(String(sent.length));
    expect(response.headers.get('x-length-seen')).toBe(String(sent.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(sent)).toBe(true);
  });

  test('multipart: fields and files by name, file bytes exact even when they hold CRLF and dashes', async () => {
    const file = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x0d, 0x0a, 0x0d, 0x0a, 0x41]);
    const form = new FormData();
    form.append('file_path', '/home/user/Desktop/naïve name.txt');
    form.append('file_data', new Blob([file]), 'upload.bin');
    const response = await fetch(`${base}/form`, { method: 'POST', body: form });
    expect(await response.json()).toEqual([
      { name: 'file_path', hex: Buffer.from('/home/user/Desktop/naïve name.txt').toString('hex') },
      { name: 'file_data', filename: 'upload.bin', hex: file.toString('hex') },
    ]);
  });

  test('url-encoded forms (OSWorld posts file_path and app_class this way)', async () => {
    const response = await fetch(`${base}/form`, { method: 'POST', body: new URLSearchParams({ app_class: 'gnome-terminal', file_path: 'a b&c=d' }) });
    expect(await response.json()).toEqual([
      { name: 'app_class', hex: Buffer.from('gnome-terminal').toString('hex') },
      { name: 'file_path', hex: Buffer.from('a b&c=d').toString('hex') },
    ]);
  });

  test('a multipart body whose boundary never closes yields the parts that did close', async () => {
    const boundary = 'XyZ';
    const body = [`--${boundary}`, 'Content-Disposition: form-data; name="kept"', '', 'one', `--${boundary}`, 'Content-Disposition: form-data; name="cut"', '', 'never ends'].join('\r\n');
    const response = await fetch(`${base}/form`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` }, body });
    expect(await response.json()).toEqual([{ name: 'kept', hex: Buffer.from('one').toString('hex') }]);
  });

  test('sendText: an HTML content type, the byte length of UTF-8 text, the given status', async () => {
    const response = await fetch(`${base}/text`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-length')).toBe(String(Buffer.byteLength('Nicht gefunden ✓')));
    expect(await response.text()).toBe('Nicht gefunden ✓');
  });
});

describe('jsonBody', () => {
  test('an object body is returned; an empty, array or scalar body gives {}', () => {
    expect(jsonBody(Buffer.from('{"command": ["ls", "-l"], "shell": false}'))).toEqual({ command: ['ls', '-l'], shell: false });
    expect(jsonBody(Buffer.alloc(0))).toEqual({});
    expect(jsonBody(Buffer.from('[1, 2]'))).toEqual({});
    expect(jsonBody(Buffer.from('"text"'))).toEqual({});
    expect(jsonBody(Buffer.from('null'))).toEqual({});
  });

  test('invalid JSON is a 400 HttpError with the parser\'s message', () => {
    let thrown: unknown;
    try {
      jsonBody(Buffer.from('{"command": '));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect((thrown as HttpError).status).toBe(400);
    expect((thrown as HttpError).body).toMatchObject({ status: 'error', message: expect.stringMatching(/^invalid JSON body: /) });
  });
});

test('HttpError: the message is the body, as text or JSON', () => {
  expect(new HttpError(404, 'File not found').message).toBe('File not found');
  expect(new HttpError(500, { status: 'error' }).message).toBe('{"status":"error"}');
});

test('str: null and undefined take the fallback, anything else is stringified', () => {
  expect(str(undefined, 'x')).toBe('x');
  expect(str(null)).toBe('');
  expect(str(0)).toBe('0');
  expect(str(false)).toBe('false');
});

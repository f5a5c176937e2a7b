// A token-guarded front for a service that listens inside the desktop without authentication of its own: Chrome's
// DevTools port (9222, which OSWorld tasks open with socat) and VLC's HTTP interface (8080). Only these fronts are
// published to the host, so nothing reachable from outside the container answers without the desktop's token.
// HTTP requests are forwarded one by one; WebSocket upgrades (CDP) are piped after the same check.
import http from 'node:http';
import net from 'node:net';

export interface GuardedProxyOptions {
  /** Port the front listens on (published to the host). */
  port: number;
  /** Port of the service inside the container (on 127.0.0.1). */
  targetPort: number;
  /** Whether a request's Authorization header carries the desktop's token. */
  authorized(header: string | undefined): boolean;
  /** The Authorization header the service itself expects (VLC's basic auth), or none. */
  upstreamAuthorization?: string;
}

export function startGuardedProxy(options: GuardedProxyOptions): http.Server {
  const { targetPort } = options;
  // The service sees a local request: Chrome refuses DevTools requests whose Host is not an IP or localhost.
  const upstreamHeaders = (headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders => {
    const forwarded: http.OutgoingHttpHeaders = { ...headers, host: `127.0.0.1:${targetPort}` };
    delete forwarded.authorization;
    if (options.upstreamAuthorization) forwarded.authorization = options.upstreamAuthorization;
    return forwarded;
  };

  const server = http.createServer((req, res) => {
    if (!options.authorized(req.headers.authorization)) {
      req.resume();
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', message: 'missing or wrong bearer token' }));
      return;
    }
    const upstream = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: upstreamHeaders(req.headers) }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', (error) => {
      if (res.headersSent) return res.destroy(error);
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'error', message: `nothing answers on port ${targetPort} inside the desktop: ${error.message}` }));
    });
    req.pipe(upstream);
  });

  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    if (!options.authorized(req.headers.authorization)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1', () => {
      const headers = Object.entries(upstreamHeaders(req.headers)).flatMap(([name, value]) =>
        (Array.isArray(value) ? value : [value]).map((one) => `${name}: ${one}`),
      );
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const close = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', close);
    socket.on('error', close);
  });

  server.listen(options.port, '0.0.0.0');
  return server;
}

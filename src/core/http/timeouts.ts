// Request timeouts of both services (issue 12): a client that sends its headers too slowly, goes
// quiet in the middle of a body, or takes too long over the whole request loses the connection,
// so no request can hold a socket, a file descriptor or a staged temp file forever. Headers and
// whole-request limits are Node's own (answered 408 by Node); the idle-body limit is armed only
// while a body is arriving, so slow handlers and long downloads are never cut by it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface RequestTimeouts {
  /** Time to receive the request headers (0 = Node's default). */
  headersMs: number;
  /** Longest silence while a request body is arriving (0 = none). */
  bodyIdleMs: number;
  /** Time to receive the whole request, body included (0 = none). */
  requestMs: number;
}

/** How often Node looks for expired headers/request timers: often enough for short limits. */
export function checkingInterval(t: RequestTimeouts): number {
  const shortest = Math.min(...[t.headersMs, t.requestMs].filter((ms) => ms > 0), 30_000);
  return Math.max(100, Math.floor(shortest / 4));
}

const TIMEOUT_BODY = JSON.stringify({ error: 'request timeout: the request body stopped arriving' });
const TIMEOUT_RESPONSE =
  'HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\n' +
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\nConnection: close\r\n\r\n${TIMEOUT_BODY}`;

export function installTimeouts(app: FastifyInstance, t: RequestTimeouts): void {
  if (t.headersMs > 0) app.server.headersTimeout = t.headersMs;
  app.server.requestTimeout = t.requestMs;
  if (t.bodyIdleMs > 0) app.addHook('onRequest', async (req, reply) => watchBodyIdle(req, reply, t.bodyIdleMs));
}

/** Closes the connection (after a 408 when nothing was answered yet) when the body goes quiet. */
function watchBodyIdle(req: FastifyRequest, reply: FastifyReply, ms: number): void {
  const raw = req.raw;
  const socket = raw.socket;
  const hasBody = Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
  // Injected requests (the OpenAPI command) have no real socket.
  if (!hasBody || raw.complete || typeof socket?.setTimeout !== 'function') return;
  const onTimeout = () => {
    stop();
    if (socket.destroyed) return;
    // The socket is closed outright, so the request stream aborts and whatever was reading the
    // body (a multipart reader staging a file) fails and cleans up.
    if (reply.raw.headersSent || socket.writableEnded) return void socket.destroy();
    socket.end(TIMEOUT_RESPONSE, () => socket.destroy());
    // A client that does not read the answer does not keep the socket either.
    setTimeout(() => socket.destroy(), 1000).unref();
  };
  const stop = () => {
    raw.off('timeout', onTimeout);
    raw.off('end', stop);
    raw.off('close', stop);
    reply.raw.off('finish', stop);
    // Once the answer is out, Node has armed its keep-alive timer on the socket: leave it.
    if (!socket.destroyed && !reply.raw.writableFinished) socket.setTimeout(0);
  };
  // Node emits the socket's inactivity on the incoming request first; with a listener there it
  // leaves the socket to us.
  raw.on('timeout', onTimeout);
  raw.once('end', stop);
  raw.once('close', stop);
  reply.raw.once('finish', stop);
  socket.setTimeout(ms);
}

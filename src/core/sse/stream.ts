// Server-Sent Events with named events (clients listen by name), a comment heartbeat so proxies
// keep the connection, and a bounded buffer: a client that cannot keep up misses events rather
// than making the server hold them. Closing either side releases everything.
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SseStream {
  send(event: string, data: unknown): void;
  /** Resolves when the client goes away or close() is called. */
  readonly closed: Promise<void>;
  close(): void;
}

export interface SseOptions {
  heartbeatMs?: number;
  /** Bytes that may wait in the socket buffer before events are dropped. */
  maxBufferedBytes?: number;
  headers?: Record<string, string>;
}

export function openSse(req: FastifyRequest, reply: FastifyReply, options: SseOptions = {}): SseStream {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    ...options.headers,
  });
  res.write(': connected\n\n');
  const maxBuffered = options.maxBufferedBytes ?? 256 * 1024;
  let open = true;
  let resolveClosed!: () => void;
  const closed = new Promise<void>((r) => (resolveClosed = r));
  const heartbeat = setInterval(() => {
    if (open) res.write(': keep-alive\n\n');
  }, options.heartbeatMs ?? 25_000);
  heartbeat.unref();

  const finish = () => {
    if (!open) return;
    open = false;
    clearInterval(heartbeat);
    resolveClosed();
  };
  req.raw.on('close', finish);
  res.on('close', finish);
  res.on('error', finish);

  return {
    closed,
    send(event, data) {
      if (!open || res.writableLength > maxBuffered) return;
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    close() {
      if (!open) return;
      finish();
      res.end();
    },
  };
}

// A local HTTP server that stands in for the web in download tests: files, slow and stalled
// bodies, redirects, errors, bodies of unknown length.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

export type StubHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface StubServer {
  url: string;
  /** Routes by path; unknown paths answer 404. */
  routes: Map<string, StubHandler>;
  close(): Promise<void>;
}

export async function startStubServer(): Promise<StubServer> {
  const routes = new Map<string, StubHandler>();
  const sockets = new Set<import('node:net').Socket>();
  const server = createServer((req, res) => {
    const handler = routes.get((req.url ?? '/').split('?')[0]);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    routes,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** Serves `body` in `chunks` pieces, `delayMs` apart, with or without a Content-Length. */
export function slowBody(body: Buffer, chunks: number, delayMs: number, withLength = true): StubHandler {
  return (_req, res) => {
    res.writeHead(200, withLength ? { 'content-length': String(body.length), 'content-type': 'application/octet-stream' } : { 'content-type': 'application/octet-stream' });
    const size = Math.ceil(body.length / chunks);
    let i = 0;
    const step = () => {
      if (res.destroyed) return;
      if (i >= body.length) return void res.end();
      res.write(body.subarray(i, i + size));
      i += size;
      setTimeout(step, delayMs);
    };
    step();
  };
}

// A client that sends a request's headers and the start of its body over a raw socket, then
// stalls (or hangs up): what a slow or broken client does to a server.
import { connect } from 'node:net';

export interface StalledResult {
  /** What the server sent before the connection closed ('' when it just closed it). */
  answer: string;
}

/**
 * Sends `head` (request line and headers, without the blank line), the blank line and `body`,
 * then waits, keeping the socket open, until the server closes it. `hangUpAfterMs` makes the
 * client go away itself instead.
 */
export function stallBody(url: string, head: string, body: string | Buffer, hangUpAfterMs?: number): Promise<StalledResult> {
  return stallRaw(url, Buffer.concat([Buffer.from(`${head}\r\n\r\n`), Buffer.from(body)]), hangUpAfterMs);
}

/** Sends `bytes` as they are, then waits with the socket open (or hangs up after `hangUpAfterMs`). */
export function stallRaw(url: string, bytes: string | Buffer, hangUpAfterMs?: number): Promise<StalledResult> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('latin1') }));
    socket.on('connect', () => {
      socket.write(bytes);
      if (hangUpAfterMs !== undefined) setTimeout(() => socket.destroy(), hangUpAfterMs);
    });
    setTimeout(() => reject(new Error('the server kept a stalled request open')), 25_000).unref();
  });
}

/** The head of a multipart POST whose declared length is far more than will be sent. */
export function multipartHead(path: string, host: string, boundary: string, extraHeaders: string[] = []): string {
  return [`POST ${path} HTTP/1.1`, `Host: ${host}`, `Content-Type: multipart/form-data; boundary=${boundary}`, 'Content-Length: 10000000', ...extraHeaders].join('\r\n');
}

/** The start of a file part that never ends. */
export function openFilePart(boundary: string, field: string, filename: string, bytes = 200_000): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n${'x'.repeat(bytes)}`;
}

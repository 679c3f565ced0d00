// Reading a request body off its socket into one reused buffer (issue 18). Node's HTTP server
// copies every read of a body into a fresh 64 KiB Buffer and pushes it through the request
// stream; for a 1 GiB upload that is about a third of the server's CPU (bench/README.md, "Library
// uploads"). For a Content-Length body this module detaches Node's parser from the socket after
// the headers, the way Node itself does for an upgrade, and has the socket read into a buffer of
// ours, as `net.connect({ onread })` does for client sockets.
//
// It relies on Node internals, isolated here: the parser's native `unconsume()`, the TCP handle's
// `useUserBuffer()` and the socket's `kBuffer`/`kBufferCb` slots that `onread` fills. Each is
// feature-detected; when any is missing (another Node, a TLS socket, an injected request, a body
// already being read) `takeBody` returns null and the caller reads `req` as usual.
//
// The connection cannot be handed back to Node's parser (it still waits for the body it never
// saw), so the reply says `Connection: close`. Bytes after the declared length (a pipelined
// request) are dropped with the connection; the client retries them, as HTTP requires.
// A client that half-closes its side after the whole body gets Node's 400 for an incomplete
// message (the detached parser never saw the body); Node ends such a connection unanswered on
// its normal path too (`httpAllowHalfOpen` is off).
//
// Used by `readPartsDirect` (multipart.ts) for library uploads declared at 1 MiB or more, whose
// reads land in the caller's memory instead (`ReadBuffers`: the staging ring): behind busboy and
// the thread-pool file stream it saved only 0.1–0.4 of ~3 CPU s/GiB; with a parser of our own
// taking the file pieces where they lie it saves about 1 (bench/README.md, uploads).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';

interface NativeParser {
  unconsume?: () => void;
  _consumed?: boolean;
  incoming?: unknown;
}

interface NativeHandle {
  useUserBuffer?: (buffer: Uint8Array) => void;
  readStart?: () => number;
  readStop?: () => number;
  reading?: boolean;
}

type ReadCallback = (bytes: number, buffer: Buffer) => boolean;

/** What the body's reader is given; `data`'s chunk is valid only during the call (the buffer is reused). */
export interface BodySink {
  /** A piece of the body; false pauses reading until `resume()`. */
  data(chunk: Buffer): boolean;
  /** All the declared bytes were delivered. */
  end(): void;
}

export interface TakenBody {
  /** Bytes declared by Content-Length. */
  readonly length: number;
  /** Whether every declared byte was delivered. */
  readonly complete: boolean;
  /** Starts reading again after `data` returned false. */
  resume(): void;
}

/** The default size of a socket read: four of Node's, so a fast sender fills it in one read. */
export const READ_BUFFER_BYTES = 256 * 1024;

/**
 * Memory of the caller's for the socket's reads (a ring a worker thread reads from), instead of
 * the one reused buffer: `next` is asked for the region of each read, null when it has none free
 * (the reader is paused then, and a read that still comes lands in the reused buffer).
 */
export interface ReadBuffers {
  next(): Buffer | null;
  /** A read of `length` bytes landed in `buffer`, before its bytes are delivered. */
  filled(buffer: Buffer, length: number): void;
}

function ownSymbol(target: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(target).find((s) => s.description === description);
}

/**
 * Takes the rest of `req`'s body off its socket, feeding `sink`, and marks `res` to close the
 * connection; null (nothing touched) when this request cannot be taken over.
 */
export async function takeBody(req: IncomingMessage, res: ServerResponse, sink: BodySink, buffers?: ReadBuffers, bufferSize = READ_BUFFER_BYTES): Promise<TakenBody | null> {
  // A handler may run inside the parser's own callback (the 'request' event is emitted while it
  // parses the headers): detached there, the parser would still push the rest of that read into
  // `req` after we drained it. A microtask runs once the parser's read has returned.
  await null;
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined || headers['content-length'] === undefined) return null;
  const length = Number(headers['content-length']);
  if (!Number.isSafeInteger(length) || length <= 0) return null;
  const socket = req.socket as (Socket & { parser?: NativeParser | null; _handle?: NativeHandle | null }) | null;
  const parser = socket?.parser;
  const handle = socket?._handle;
  if (!socket || socket.destroyed || !parser || !handle) return null;
  // The request must be the parser's current one, unread, with its body not yet complete.
  const incoming = req as IncomingMessage & { _consuming?: boolean; _dumped?: boolean };
  if (parser.incoming !== req || req.complete || incoming._consuming !== false || incoming._dumped !== false || req.readableFlowing === true) return null;
  if (req.listenerCount('data') > 0 || req.listenerCount('readable') > 0) return null;
  if (parser._consumed !== true || typeof parser.unconsume !== 'function') return null;
  if (typeof handle.useUserBuffer !== 'function' || typeof handle.readStart !== 'function') return null;
  const kBuffer = ownSymbol(socket, 'kBuffer');
  const kBufferCb = ownSymbol(socket, 'kBufferCb');
  const kBufferGen = ownSymbol(socket, 'kBufferGen');
  const slots = socket as unknown as Record<symbol, unknown>;
  if (!kBuffer || !kBufferCb || slots[kBuffer] !== null || slots[kBufferCb] !== null) return null;
  if (buffers && (!kBufferGen || slots[kBufferGen] !== null)) return null;
  if (res.headersSent) return null;

  let remaining = length;
  let paused = false;
  const deliver = (chunk: Buffer): boolean => {
    if (remaining <= 0) return false;
    const piece = chunk.length > remaining ? chunk.subarray(0, remaining) : chunk;
    remaining -= piece.length;
    const more = sink.data(piece);
    if (remaining === 0) {
      sink.end();
      return false;
    }
    return more;
  };
  const onRead: ReadCallback = (bytes, buffer) => {
    // After the body (or while paused, if something restarted the socket), bytes are dropped
    // with the connection, which closes after the reply.
    if (remaining <= 0) return false;
    buffers?.filled(buffer, bytes);
    const more = deliver(buffer.subarray(0, bytes));
    if (!more) paused = remaining > 0;
    return more;
  };

  // From here on nothing can fail half-way: the parser stops reading the socket, the socket
  // reads into our buffer, and the bytes the parser already pushed into `req` come first.
  res.setHeader('Connection', 'close');
  parser.unconsume();
  parser._consumed = false;
  const buffer = Buffer.allocUnsafe(bufferSize);
  const first = buffers?.next() ?? buffer;
  slots[kBuffer] = first;
  slots[kBufferCb] = onRead;
  // Node asks after each read where the next one goes; once the body is complete, anything more
  // lands in our own buffer, never in the caller's memory.
  if (buffers) slots[kBufferGen!] = () => (remaining > 0 ? (buffers.next() ?? buffer) : buffer);
  handle.useUserBuffer(first);
  let more = true;
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) more = deliver(chunk) && more;
  if (!more && remaining > 0) pause();
  else if (remaining > 0) resume();

  function pause() {
    paused = true;
    if (handle!.reading) {
      handle!.reading = false;
      handle!.readStop!();
    }
  }
  function resume() {
    paused = false;
    if (!socket!.destroyed && !handle!.reading && remaining > 0) {
      handle!.reading = true;
      handle!.readStart!();
    }
  }

  return {
    length,
    get complete() {
      return remaining === 0;
    },
    resume() {
      if (paused) resume();
    },
  };
}

/**
 * The rest of `req`'s body as a stream of `batchBytes` chunks (the last one shorter), read off
 * the socket into a reused buffer; null when it cannot be taken over (read `req` instead). The
 * stream fails when the connection closes before the declared length arrived.
 */
export async function takeBodyStream(req: IncomingMessage, res: ServerResponse, batchBytes = 1024 * 1024): Promise<Readable | null> {
  let batch: Buffer | null = null;
  let filled = 0;
  let taken: TakenBody | null = null;
  const stream = new Readable({
    highWaterMark: 0,
    read() {
      taken?.resume();
    },
  });
  const flush = (): boolean => {
    const full = batch!.subarray(0, filled);
    batch = null;
    filled = 0;
    return stream.push(full);
  };
  taken = await takeBody(req, res, {
    data(chunk) {
      let more = true;
      for (let at = 0; at < chunk.length; ) {
        batch ??= Buffer.allocUnsafeSlow(batchBytes);
        const n = chunk.copy(batch, filled, at);
        filled += n;
        at += n;
        if (filled === batch.length) more = flush() && more;
      }
      return more;
    },
    end() {
      if (filled > 0) flush();
      stream.push(null);
    },
  });
  if (!taken) return null;
  const socket = req.socket;
  const onClose = () => {
    if (!taken!.complete) stream.destroy(new Error('the connection closed before the request body was complete'));
  };
  socket.once('close', onClose);
  stream.once('close', () => socket.off('close', onClose));
  return stream;
}

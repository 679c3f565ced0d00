// The multipart/form-data readers of both services. Every route that accepts multipart reads it
// through `readParts` (busboy; files streamed, never buffered) or `readFields` (text fields only);
// library uploads declared at 1 MiB or more go through `readPartsDirect` (our parser on the body
// taken off the socket, compared with busboy in multipart-parser.test.ts). Every way a body can be
// wrong is answered the same way by all of them: a missing boundary, malformed part
// headers or a body that ends inside a part are 400; too many parts, a text field over the JSON
// body limit or a file over the caller's limit are 413; a client that goes away mid-body fails
// the read at once (the caller's catch removes whatever it staged). Errors are always HttpError.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError, badRequest } from './errors.js';
import { takeBody, type ReadBuffers, type TakenBody } from './body-takeover.js';
import { MultipartParser, boundaryOf, type ParserErrors, type ParserLimits, type PartHandlers } from './multipart-parser.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** True when the request declared a multipart/form-data body (not yet read). */
    isMultipart(): boolean;
  }
}

export interface PartLimits {
  /** Bytes of one file part (default unlimited). */
  fileSize?: number;
  /** Bytes of one text field (default: the server's JSON body limit). */
  fieldSize?: number;
  /** Parts of the whole body (default 1000). */
  parts?: number;
  files?: number;
  fields?: number;
}

export interface ReadOptions {
  limits?: PartLimits;
  /** The error of a file over `limits.fileSize` (default 413 "request body too large"). */
  tooLarge?: () => HttpError;
  /** The error of a body that cannot be parsed, given the parser's reason (default 400 "invalid multipart body: <reason>"). */
  malformed?: (reason: string) => HttpError;
  /** Treat every part as a file, text fields included (a clip upload's first part). */
  everyPartIsAFile?: boolean;
  /**
   * The body to read instead of `req.raw`: one taken off the socket (body-takeover.ts), which
   * fails when the connection closes before its declared length arrived.
   */
  body?: Readable;
}

export interface FieldPart {
  type: 'field';
  name: string;
  value: string;
}

export interface FilePart {
  type: 'file';
  name: string;
  /** The part's filename parameter ('' when absent). */
  filename: string;
  /** The part's Content-Type (busboy's default when it sent none). */
  mimetype: string;
  /** The part's bytes; fails with an HttpError when the body is malformed, oversized or aborted. */
  stream: Readable;
}

export type Part = FieldPart | FilePart;

/** Parts of one body when the caller sets no limit. */
export const DEFAULT_PARTS = 1000;
/**
 * What a file part's stream buffers on each side: one socket read. The reader (a file write)
 * batches on its own side; slack here only multiplies a concurrent burst's memory (eight uploads
 * at once held 30–60 MiB of socket chunks with 1 MiB here and in the staging tap, bench/README.md).
 */
const PART_BUFFER_BYTES = 64 * 1024;
const marked = new WeakMap<FastifyRequest, { fieldSize: number }>();

const bodyTooLarge = () => new HttpError(413, 'request body too large');
/** The answer to a body that ended before it was complete (also for routes that read it whole). */
export const aborted = () => badRequest('upload aborted: the request body ended before it was complete');
const malformedBody = (reason: string) => badRequest(`invalid multipart body: ${reason}`);

/** Registers the multipart content type: the body is left unread until a route reads it. */
export function registerMultipart(app: FastifyInstance, defaults: { fieldSize: number }): void {
  app.decorateRequest('isMultipart', function (this: FastifyRequest) {
    return marked.has(this);
  });
  app.addContentTypeParser('multipart/form-data', (req, _payload, done) => {
    marked.set(req, { fieldSize: defaults.fieldSize });
    done(null, undefined);
  });
}

/** The limits of one read with the defaults filled in (busboy and our parser take the same shape). */
function limitsOf(options: ReadOptions, fieldSize: number): ParserLimits {
  const limits = options.limits ?? {};
  return {
    fieldSize: limits.fieldSize ?? fieldSize,
    fileSize: limits.fileSize && limits.fileSize > 0 ? limits.fileSize : Infinity,
    parts: limits.parts ?? DEFAULT_PARTS,
    files: limits.files ?? Infinity,
    fields: limits.fields ?? Infinity,
  };
}

/** The answers to a body over its limits or unreadable: the same from both readers. */
function errorsOf(options: ReadOptions, limits: ParserLimits): { [K in keyof ParserErrors]: (...args: Parameters<ParserErrors[K]>) => HttpError } {
  return {
    fileTooLarge: options.tooLarge ?? bodyTooLarge,
    fieldTooLarge: (name) => new HttpError(413, `request body too large: the field "${name}" is over ${limits.fieldSize} bytes`),
    tooManyParts: () => new HttpError(413, `request body too large: more than ${limits.parts} parts`),
    malformed: (reason) => (options.malformed ?? malformedBody)(reason.replace(/^Multipart: /, '')),
  };
}

/**
 * The parts of a multipart body, in order. A file part must be read (or left alone: asking for
 * the next part drains it) before the next one arrives. Leaving the loop early, or an error,
 * stops reading the body.
 */
export function readParts(req: FastifyRequest, options: ReadOptions = {}): AsyncIterableIterator<Part> {
  const state = marked.get(req);
  const limits = limitsOf(options, state?.fieldSize ?? 0);
  const errors = errorsOf(options, limits);
  const queue: (Part | HttpError | null)[] = [];
  let wake: (() => void) | null = null;
  let failure: HttpError | null = null;
  let finished = false;
  let current: { source: BusboyFileStream; stream: PassThrough } | null = null;
  let handedOut: Readable | null = null;
  const raw = req.raw;
  const body: Readable = options.body ?? raw;

  const push = (item: Part | HttpError | null) => {
    queue.push(item);
    wake?.();
    wake = null;
  };
  const fail = (err: HttpError) => {
    if (failure || finished) return;
    failure = err;
    if (current && !current.stream.readableEnded) current.stream.destroy(err);
    stop();
    push(err);
  };

  let bb: BusboyInstance | null = null;
  if (!state) {
    failure = badRequest('expected a multipart/form-data body');
  } else {
    try {
      bb = new Busboy({
        headers: req.headers as { 'content-type': string },
        limits: { ...limits },
        ...(options.everyPartIsAFile ? { isPartAFile: () => true } : {}),
      });
    } catch (e) {
      failure = errors.malformed((e as Error).message);
    }
  }
  if (failure) push(failure);

  function onClose() {
    if (!raw.complete) fail(aborted());
  }
  const onBodyError = () => fail(aborted());
  function stop() {
    raw.off('close', onClose);
    raw.off('aborted', onClose);
    raw.off('error', onClose);
    body.off('error', onBodyError);
    if (bb) {
      body.unpipe(bb);
      bb.removeAllListeners('field').removeAllListeners('file');
      bb.on('file', (_n: string, s: Readable) => s.resume());
      bb.on('error', () => undefined);
    }
    // The rest of the body stays unread: the error reply closes the connection (server.ts).
  }

  if (bb) {
    bb.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) return fail(errors.fieldTooLarge(name));
      push({ type: 'field', name, value });
    });
    bb.on('file', (name: string, source: BusboyFileStream, filename: string | undefined, _encoding: string, mimetype: string) => {
      if (failure) return void source.resume();
      const stream = new PassThrough({ highWaterMark: PART_BUFFER_BYTES });
      // Whoever reads the stream sees its error; one nobody reads must not crash the process.
      stream.on('error', () => undefined);
      source.on('limit', () => fail(errors.fileTooLarge()));
      source.on('error', (e: Error) => fail(errors.malformed(e.message)));
      source.pipe(stream);
      current = { source, stream };
      push({ type: 'file', name, filename: filename ?? '', mimetype, stream });
    });
    const overflow = () => fail(errors.tooManyParts());
    bb.on('partsLimit', overflow).on('filesLimit', overflow).on('fieldsLimit', overflow);
    bb.on('error', (e: Error) => fail(errors.malformed(e.message)));
    bb.on('finish', () => {
      if (failure) return;
      finished = true;
      stop();
      push(null);
    });
    if (body === raw) {
      raw.on('close', onClose);
      raw.on('aborted', onClose);
      raw.on('error', onClose);
    } else body.on('error', onBodyError);
    body.pipe(bb);
  }

  const iterator: AsyncIterableIterator<Part> = {
    [Symbol.asyncIterator]() {
      return iterator;
    },
    async next(): Promise<IteratorResult<Part>> {
      // The file part handed out last, if the caller skipped it, is drained so the parser moves on.
      if (handedOut && !handedOut.destroyed && handedOut.readableFlowing === null) handedOut.resume();
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift()!;
      if (item === null) {
        queue.unshift(null);
        return { done: true, value: undefined };
      }
      if (item instanceof HttpError) {
        queue.unshift(item);
        throw item;
      }
      if (item.type === 'file') handedOut = item.stream;
      return { done: false, value: item };
    },
    async return(): Promise<IteratorResult<Part>> {
      if (!finished && !failure) {
        failure = aborted();
        current?.stream.destroy(failure);
        stop();
      }
      return { done: true, value: undefined };
    },
  };
  return iterator;
}

/**
 * Declared bodies from this size on are read by `readPartsDirect`: below it, keeping the
 * connection alive for the client's next request is worth more than the copies saved.
 */
export const DIRECT_MIN_BYTES = 1024 * 1024;

export interface DirectHandlers extends PartHandlers {
  /** Null, or a promise to wait for before the next read (a sink's writes are behind): the socket pauses meanwhile. */
  blocked?(): Promise<void> | null;
  /** Memory for the socket's reads (body-takeover.ts), so file pieces reach their sinks as views of it. */
  buffers?: ReadBuffers;
}

/**
 * Reads a multipart body straight off the socket (body-takeover.ts) through our own parser
 * (multipart-parser.ts): a file part's bytes reach its sink as pieces of the memory the socket
 * read into (`buffers`, or takeBody's one reused buffer), so the sink must take each (post it,
 * copy it) before returning. Resolves true once
 * the whole body was read; false, with nothing read, when this request cannot be read that way
 * (declared under DIRECT_MIN_BYTES, chunked, injected, another Node): read it with `readParts`.
 * Fails with the same HttpErrors as `readParts`, or a handler's error; reading stops at the
 * first. The connection closes after the reply.
 */
export async function readPartsDirect(req: FastifyRequest, res: ServerResponse, handlers: DirectHandlers, options: ReadOptions = {}): Promise<boolean> {
  const state = marked.get(req);
  if (!state) throw badRequest('expected a multipart/form-data body');
  if (!(Number(req.headers['content-length']) >= DIRECT_MIN_BYTES) || options.everyPartIsAFile) return false;
  const limits = limitsOf(options, state.fieldSize);
  const errors = errorsOf(options, limits);
  const boundary = boundaryOf(req.headers['content-type']);
  if (boundary === undefined) throw errors.malformed('Boundary not found');
  const parser = new MultipartParser(boundary, limits, handlers, errors);
  // Null for an injected request, which takeBody then declines.
  const socket = req.raw.socket as Socket | null;
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    let taken: TakenBody | null = null;
    let waiting = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      socket?.off('close', onClose);
      if (error === undefined) resolve(true);
      else reject(error);
    };
    const onClose = () => {
      if (!taken?.complete) settle(aborted());
    };
    takeBody(req.raw, res, {
      data(chunk) {
        if (settled) return false;
        try {
          parser.write(chunk);
        } catch (e) {
          settle(e);
          return false;
        }
        const wait = handlers.blocked?.();
        if (!wait) return true;
        waiting = true;
        void wait.then(() => {
          waiting = false;
          if (!settled) taken?.resume();
        });
        return false;
      },
      end() {
        try {
          parser.end();
          settle();
        } catch (e) {
          settle(e);
        }
      },
    }, handlers.buffers).then((t) => {
      if (t === null) {
        settled = true;
        return resolve(false);
      }
      taken = t;
      if (settled) return;
      // A wait that ended while the body was being taken over found nothing to resume yet.
      if (!waiting) t.resume();
      if (!socket || socket.destroyed) onClose();
      else socket.once('close', onClose);
    }, settle);
  });
}

/** The text fields of a multipart body as parameters (repeated names become arrays); files are dropped. */
export async function readFields(req: FastifyRequest): Promise<Record<string, unknown>> {
  const fields: Record<string, unknown> = {};
  for await (const part of readParts(req)) {
    if (part.type !== 'field') continue;
    addField(fields, part.name, part.value);
  }
  return fields;
}

/** Adds a field value; a repeated name collects its values in an array. */
export function addField(fields: Record<string, unknown>, name: string, value: string): void {
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') return;
  const prev = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
  fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

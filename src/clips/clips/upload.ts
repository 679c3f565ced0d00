// Reads the clip of POST /clips (companion §3.4): the first multipart part, whatever its field
// name and whether or not it has a filename, streamed to the blob staging area while hashed.
// Only a body declaring at most DIRECT_BODY_BYTES is held whole in memory (read at once, parsed
// in one pass, by the same parser); over 100 MiB answers 413 and leaves nothing behind.
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../core/http/errors.js';
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import { aborted, DEFAULT_PARTS, readParts } from '../../core/http/multipart.js';
import { unreadableMultipart } from '../http/input.js';
import type { BlobStore, StagedBlob } from '../storage/blobs.js';
import { partFilename } from './filenames.js';
import { MAX_CLIP_BYTES } from './service.js';

/** The whole request may carry 1 MiB of multipart overhead beyond the clip itself. */
export const MAX_UPLOAD_BODY = MAX_CLIP_BYTES + 1024 * 1024;
const HEADER_CAPTURE = 16 * 1024;
/**
 * A body that declares at most this many bytes is read whole and parsed in one pass instead of
 * streamed (small-upload CPU, bench/README.md "Clip service"); larger or chunked bodies stream.
 */
export const DIRECT_BODY_BYTES = 256 * 1024;

export const tooLarge = () => new HttpError(413, 'clip exceeds 100 MiB limit', {}, { Connection: 'close' });

export interface ReceivedClip {
  staged: StagedBlob;
  /** The part's filename, reduced to its base name ("" when absent). */
  filename: string;
  /** The part's own Content-Type header, or null when it sent none. */
  declaredType: string | null;
}

/** Content-Type of the first part, read from the raw head of the body (busboy defaults it). */
export function firstPartContentType(head: Buffer, boundary: string): string | null | undefined {
  const text = head.toString('latin1');
  const start = text.indexOf(`--${boundary}`);
  if (start < 0) return undefined;
  const headersStart = text.indexOf('\r\n', start);
  const headersEnd = text.indexOf('\r\n\r\n', headersStart);
  if (headersStart < 0 || headersEnd < 0) return undefined;
  for (const line of text.slice(headersStart + 2, headersEnd).split('\r\n')) {
    const m = /^content-type:\s*(.*)$/i.exec(line);
    if (m) return m[1].trim();
  }
  return null;
}

export async function receiveClip(req: FastifyRequest, blobs: BlobStore): Promise<ReceivedClip> {
  const contentType = req.headers['content-type'];
  if (!contentType) throw badRequest('missing Content-Type header');
  const boundary = /^multipart\/form-data\s*;.*\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  if (!boundary || !req.isMultipart()) throw badRequest('expected multipart/form-data');
  const declaredLength = Number(req.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > MAX_UPLOAD_BODY) throw tooLarge();
  if (req.headers['content-length'] !== undefined && declaredLength <= DIRECT_BODY_BYTES) {
    return receiveWhole(req, blobs, boundary[1] ?? boundary[2]);
  }

  // Every part counts as a file (a plain text field is a text clip).
  const parts = readParts(req, { everyPartIsAFile: true, tooLarge, malformed: unreadableMultipart, limits: { fileSize: MAX_CLIP_BYTES } });

  // Watch the raw body (in the same tick as the pipe above, so no chunk is missed): keep its
  // first bytes for the part headers, and stop a chunked body that outgrows the cap.
  let received = 0;
  const captured: Buffer[] = [];
  let capturedBytes = 0;
  let current: NodeJS.ReadableStream & { destroy?: (e?: Error) => void } | null = null;
  let rejectOver: (e: Error) => void = () => undefined;
  const over = new Promise<never>((_, reject) => (rejectOver = reject));
  over.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (capturedBytes < HEADER_CAPTURE) {
      captured.push(chunk.subarray(0, HEADER_CAPTURE - capturedBytes));
      capturedBytes += Math.min(chunk.length, HEADER_CAPTURE - capturedBytes);
    }
    if (received > MAX_UPLOAD_BODY) {
      req.raw.off('data', onData);
      req.raw.unpipe();
      current?.destroy?.(tooLarge());
      rejectOver(tooLarge());
    }
  };
  req.raw.on('data', onData);

  let staged: StagedBlob | null = null;
  const work = (async (): Promise<ReceivedClip> => {
    const first = await parts.next();
    if (first.done || first.value.type !== 'file') throw badRequest('failed to read multipart data');
    const part = first.value;
    current = part.stream;
    staged = await blobs.stage(part.stream, MAX_CLIP_BYTES);
    try {
      // Later parts are not part of the clip; they are read and dropped so the request completes.
      for await (const rest of parts) void rest;
    } catch (e) {
      // A malformed tail after a complete first part does not spoil the clip; an oversized one does.
      if (e instanceof HttpError && e.status === 413) throw e;
    }
    const declared = firstPartContentType(Buffer.concat(captured), boundary[1] ?? boundary[2]);
    return {
      staged,
      filename: partFilename(part.filename),
      declaredType: declared === undefined ? part.mimetype : declared,
    };
  })();

  try {
    return await Promise.race([work, over]);
  } catch (e) {
    // The cap may fire after staging completed (while later parts drain): drop the staged file
    // now, and once more should the reading only finish later.
    if (staged) await blobs.discard(staged);
    work.then((s) => blobs.discard(s.staged), () => undefined);
    throw e;
  } finally {
    req.raw.off('data', onData);
  }
}

/** The whole body of a request whose Content-Length is known and small. */
function readBody(req: FastifyRequest): Promise<Buffer> {
  const raw = req.raw;
  // A client that went away before the handler ran: its close has been and gone.
  if (raw.destroyed && !raw.complete) return Promise.reject(aborted());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onClose = () => {
      if (raw.complete) return;
      done();
      reject(aborted());
    };
    const done = () => {
      raw.off('data', onData).off('end', onEnd).off('close', onClose).off('aborted', onClose).off('error', onClose);
    };
    raw.on('data', onData).on('end', onEnd).on('close', onClose).on('aborted', onClose).on('error', onClose);
  });
}

interface FirstPart {
  bytes: Buffer;
  filename: string;
  mimetype: string;
}

/**
 * The first part of a multipart body held in memory, parsed by the same parser with the same
 * limits as the streamed path (readParts), so both answer alike: an error before the first part
 * is complete fails the upload (400, or 413 for too many parts); after it, only a 413 does.
 *
 * Not readParts itself over the buffer (its `body` option): on an error it destroys the current
 * part's stream unless the reader has read it to the end, and a body written in one piece reaches
 * a malformed tail in the same write that completes the first part, so the clip would be lost
 * where streaming keeps it (test/clips/upload-direct.test.ts, "malformed tail").
 */
function firstPart(req: FastifyRequest, body: Buffer): Promise<FirstPart> {
  return new Promise((resolve, reject) => {
    let bb: BusboyInstance;
    try {
      bb = new Busboy({
        headers: req.headers as { 'content-type': string },
        limits: { fileSize: MAX_CLIP_BYTES, parts: DEFAULT_PARTS, files: Infinity, fields: Infinity },
        isPartAFile: () => true,
      });
    } catch {
      return reject(unreadableMultipart());
    }
    let first: FirstPart | null = null;
    let complete = false;
    let failure: HttpError | null = null;
    const fail = (err: HttpError) => {
      if (failure) return;
      // A malformed tail after a complete first part does not spoil the clip; too many parts does.
      if (complete && err.status !== 413) return;
      failure = err;
      reject(err);
    };
    bb.on('file', (_name: string, source: BusboyFileStream, filename: string | undefined, _encoding: string, mimetype: string) => {
      if (first || failure) return void source.resume();
      const chunks: Buffer[] = [];
      first = { bytes: Buffer.alloc(0), filename: filename ?? '', mimetype };
      source.on('data', (chunk: Buffer) => chunks.push(chunk));
      source.on('limit', () => fail(tooLarge()));
      source.on('error', () => fail(unreadableMultipart()));
      source.on('end', () => {
        if (failure) return;
        first!.bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
        complete = true;
      });
    });
    bb.on('partsLimit', () => fail(new HttpError(413, `request body too large: more than ${DEFAULT_PARTS} parts`)));
    bb.on('error', () => fail(unreadableMultipart()));
    bb.on('finish', () => {
      if (failure) return;
      if (!first || !complete) return reject(unreadableMultipart());
      resolve(first);
    });
    bb.end(body);
  });
}

/** The plain form of the header: one unquoted boundary made of token characters (RFC 2046). */
const PLAIN_MULTIPART = /^multipart\/form-data; boundary=[0-9A-Za-z'()+_,./:=?-]{1,70}$/i;
/** Name and filename quoted, of printable ASCII without quote, backslash (and for the filename slash). */
const PLAIN_DISPOSITION = /^content-disposition: form-data; name="[ !#-[\]-~]*"(?:; filename="([ !#-.0-[\]-~]*)")?$/i;
const PLAIN_TYPE = /^content-type: [ -~]*$/i;

/**
 * The common body — one part, with a plain Content-Disposition and at most a Content-Type, and
 * nothing after the closing delimiter but a line break — split by hand, which is all busboy
 * would find in it. Anything else (null) goes to busboy, so what this accepts, busboy would
 * have read the same way.
 */
function plainSinglePart(contentType: string, body: Buffer, boundary: string): FirstPart | null {
  if (!PLAIN_MULTIPART.test(contentType)) return null;
  const open = `--${boundary}\r\n`;
  if (body.toString('latin1', 0, open.length) !== open) return null;
  const headersEnd = body.indexOf('\r\n\r\n', open.length, 'latin1');
  // The part's Content-Type is read from the body's first HEADER_CAPTURE bytes, as streamed.
  if (headersEnd < 0 || headersEnd + 4 > HEADER_CAPTURE) return null;
  let filename: string | null = null;
  let typed = false;
  for (const line of body.toString('latin1', open.length, headersEnd).split('\r\n')) {
    const disposition: RegExpExecArray | null = filename === null ? PLAIN_DISPOSITION.exec(line) : null;
    if (disposition) filename = disposition[1] ?? '';
    else if (!typed && PLAIN_TYPE.test(line)) typed = true;
    else return null;
  }
  if (filename === null || filename === '.' || filename === '..') return null;
  const dataStart = headersEnd + 4;
  const close = body.indexOf(`\r\n--${boundary}`, dataStart, 'latin1');
  if (close < 0) return null;
  const rest = body.toString('latin1', close + 4 + boundary.length);
  if (rest !== '--\r\n' && rest !== '--') return null;
  return { bytes: body.subarray(dataStart, close), filename, mimetype: '' };
}

/** A small body: read whole, its first part hashed and written by one call each (no streams). */
async function receiveWhole(req: FastifyRequest, blobs: BlobStore, boundary: string): Promise<ReceivedClip> {
  const body = await readBody(req);
  const part = plainSinglePart(req.headers['content-type']!, body, boundary) ?? (await firstPart(req, body));
  const declared = firstPartContentType(body.subarray(0, HEADER_CAPTURE), boundary);
  return {
    staged: await blobs.stageBytes(part.bytes, MAX_CLIP_BYTES),
    filename: partFilename(part.filename),
    declaredType: declared === undefined ? part.mimetype : declared,
  };
}

// A push parser of multipart/form-data for bodies read off the socket into one reused buffer
// (multipart.ts, `readPartsDirect`). Busboy hands every piece of a file part to a stream of its
// own, which the reader must keep (a copy of each read) and which costs events per chunk; here a
// file part's bytes go synchronously to a sink as subarrays of the chunk being parsed, so the
// sink hashes and writes them before the buffer is reused (bench/README.md, uploads).
//
// It frames the body as busboy's Dicer does — a delimiter is CRLF "--" boundary, the body is read
// as if preceded by a CRLF so a first delimiter at its start counts, bytes before the first
// delimiter and after the closing one are ignored, a part whose headers do not end before the
// next delimiter is dropped — and reads part headers with busboy's own header parser and
// parameter decoding, so both readers see the same fields, names and filenames
// (multipart-parser.test.ts compares them on the same bodies cut at random places).
import HeaderParser from '@fastify/busboy/deps/dicer/lib/HeaderParser.js';
import parseParams from '@fastify/busboy/lib/utils/parseParams.js';
import decodeText from '@fastify/busboy/lib/utils/decodeText.js';
import basename from '@fastify/busboy/lib/utils/basename.js';

/** Where a file part's bytes go; `write`'s chunk is valid only during the call. */
export interface FileSink {
  write(chunk: Buffer): void;
  /** The part's last byte was written. */
  end(): void;
}

export interface PartHandlers {
  field(name: string, value: string): void;
  /** A file part begins; null reads past its bytes (the size limit still applies). */
  file(name: string, filename: string, mimetype: string): FileSink | null;
}

export interface ParserLimits {
  fileSize: number;
  fieldSize: number;
  parts: number;
  files: number;
  fields: number;
}

/** The errors the parser throws, made by the caller so both readers answer alike. */
export interface ParserErrors {
  fileTooLarge(): Error;
  fieldTooLarge(name: string): Error;
  tooManyParts(): Error;
  malformed(reason: string): Error;
}

/** The most header bytes and lines of one part (busboy's defaults: what is over is dropped). */
const HEADER_LIMITS = { maxHeaderSize: 80 * 1024, maxHeaderPairs: 2000 };
const DASH = 0x2d;
const EMPTY = Buffer.alloc(0);
const ONE_DASH = Buffer.from('-');

/** The boundary parameter of a multipart Content-Type, undefined when it has none. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  if (typeof contentType !== 'string') return undefined;
  for (const param of parseParams(contentType)) {
    if (Array.isArray(param) && /^boundary$/i.test(param[0]) && typeof param[1] === 'string') return param[1];
  }
  return undefined;
}

type State = 'preamble' | 'delimited' | 'header' | 'field' | 'file' | 'skip' | 'done';

export class MultipartParser {
  private readonly delimiter: Buffer;
  /** The last bytes of the previous chunk, which may be the start of a delimiter. */
  private carry: Buffer;
  private state: State = 'preamble';
  /** Dashes seen right after a delimiter: two close the body. */
  private dashes = 0;
  private readonly headers = new HeaderParser(HEADER_LIMITS);
  private header: Record<string, string[]> | null = null;
  private parts = 0;
  private files = 0;
  private fields = 0;
  private sink: FileSink | null = null;
  private partBytes = 0;
  private fieldName = '';
  private fieldCharset = 'utf8';
  private fieldValue = '';

  constructor(
    boundary: string,
    private readonly limits: ParserLimits,
    private readonly handlers: PartHandlers,
    private readonly errors: ParserErrors,
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // The body is read as if it began with a CRLF, so a delimiter at its very start is found.
    this.carry = Buffer.from('\r\n');
    this.headers.on('header', (header) => (this.header = header));
  }

  /** True once the closing delimiter was read. */
  get finished(): boolean {
    return this.state === 'done';
  }

  /** Parses the next bytes of the body; throws one of `errors` (or a handler's error). */
  write(chunk: Buffer): void {
    if (this.finished || chunk.length === 0) return;
    const delimiter = this.delimiter;
    const keep = delimiter.length - 1;
    let pos = 0;
    if (this.carry.length > 0) {
      // A delimiter may begin in the carried bytes: only the seam is joined, not the whole read.
      const carried = this.carry.length;
      const seam = Buffer.concat([this.carry, chunk.subarray(0, keep)]);
      const at = seam.indexOf(delimiter);
      if (at >= 0) {
        this.carry = EMPTY;
        this.data(seam, 0, at);
        this.delimited();
        pos = at + delimiter.length - carried;
      } else if (chunk.length >= keep) {
        // No delimiter starts in the carried bytes: a match would have ended inside the seam.
        this.carry = EMPTY;
        this.data(seam, 0, carried);
      } else {
        // A read shorter than the delimiter: all of it joins what is carried.
        const cut = Math.max(0, seam.length - keep);
        this.carry = seam.subarray(cut);
        this.data(seam, 0, cut);
        return;
      }
    }
    while (!this.finished) {
      const at = chunk.indexOf(delimiter, pos);
      if (at < 0) break;
      this.data(chunk, pos, at);
      this.delimited();
      pos = at + delimiter.length;
    }
    if (this.finished) return;
    const safe = Math.max(pos, chunk.length - keep);
    this.data(chunk, pos, safe);
    // A copy: the caller reuses the chunk's memory for its next read.
    this.carry = Buffer.from(chunk.subarray(safe));
  }

  /** The body ended; throws when it ended before the closing delimiter. */
  end(): void {
    // What was held back in case a delimiter began there is content (or the closing dashes).
    const rest = this.carry;
    this.carry = EMPTY;
    if (!this.finished) this.data(rest, 0, rest.length);
    if (this.state !== 'done') throw this.errors.malformed('Unexpected end of multipart data');
  }

  /** Bytes [start, end) of `buf`, all before the next delimiter. */
  private data(buf: Buffer, start: number, end: number): void {
    if (start >= end) return;
    switch (this.state) {
      case 'delimited':
        return this.afterDelimiter(buf, start, end);
      case 'header': {
        const r = this.headers.push(buf.subarray(start, end));
        if (r === undefined) return;
        this.beginBody();
        return this.data(buf, start + r, end);
      }
      case 'field':
        this.partBytes += end - start;
        if (this.partBytes > this.limits.fieldSize) throw this.errors.fieldTooLarge(this.fieldName);
        this.fieldValue += buf.toString('latin1', start, end);
        return;
      case 'file':
        this.partBytes += end - start;
        if (this.partBytes > this.limits.fileSize) throw this.errors.fileTooLarge();
        this.sink?.write(buf.subarray(start, end));
        return;
      default:
        // Preamble, skipped parts and the epilogue are not read.
        return;
    }
  }

  /** The first bytes after a delimiter: "--" closes the body, anything else begins a part. */
  private afterDelimiter(buf: Buffer, start: number, end: number): void {
    let at = start;
    while (this.dashes < 2 && at < end && buf[at] === DASH) {
      this.dashes++;
      at++;
    }
    if (this.dashes === 2) {
      this.state = 'done';
      return;
    }
    if (at === end) return;
    // One dash and then something else: the dash belongs to the part, as in busboy.
    const lone = this.dashes === 1;
    this.dashes = 0;
    this.countPart();
    this.state = 'header';
    this.header = null;
    this.headers.reset();
    if (lone) this.data(ONE_DASH, 0, 1);
    this.data(buf, at, end);
  }

  private countPart(): void {
    if (++this.parts > this.limits.parts) throw this.errors.tooManyParts();
  }

  /** Decides from the part's headers what its bytes are, the way busboy does. */
  private beginBody(): void {
    const header = this.header ?? {};
    this.partBytes = 0;
    let mimetype = 'text/plain';
    let charset = 'utf8';
    const contentType = header['content-type']?.[0];
    if (contentType) {
      if (contentType.length !== 0 && !/[; \t]/.test(contentType)) mimetype = contentType.toLowerCase();
      else {
        const parsed = parseParams(contentType);
        if (typeof parsed[0] === 'string' && parsed[0]) {
          mimetype = parsed[0].toLowerCase();
          const param = parsed.find((p): p is [string, string] => Array.isArray(p) && /^charset$/i.test(p[0]));
          if (param?.[1] !== undefined) charset = param[1].toLowerCase();
        }
      }
    }
    const disposition = header['content-disposition']?.[0];
    if (disposition === undefined) return void (this.state = 'skip');
    const parsed = parseParams(disposition);
    if (typeof parsed[0] !== 'string' || !/^form-data$/i.test(parsed[0])) return void (this.state = 'skip');
    let name: string | undefined;
    let filename: string | undefined;
    for (const param of parsed) {
      if (!Array.isArray(param)) continue;
      const [key, value] = param;
      const isName = /^name$/i.test(key);
      if (!isName && !/^filename$/i.test(key)) continue;
      if (typeof value === 'string' && /[\r\n]/.test(value)) return void (this.state = 'skip');
      // A filename parameter without a value still makes the part a file (busboy's basename of it is '').
      if (isName) name = value;
      else filename = basename(value ?? '');
    }
    if (mimetype === 'application/octet-stream' || filename !== undefined) {
      if (this.files === this.limits.files) throw this.errors.tooManyParts();
      this.files++;
      this.state = 'file';
      this.sink = this.handlers.file(name ?? '', filename ?? '', mimetype);
      return;
    }
    if (this.fields === this.limits.fields) throw this.errors.tooManyParts();
    this.fields++;
    this.state = 'field';
    this.fieldName = name ?? '';
    this.fieldCharset = charset;
    this.fieldValue = '';
  }

  /** A delimiter was read: the part before it is complete. */
  private delimited(): void {
    // The bytes just before this delimiter may have closed the body ("--" after the previous one).
    if (this.state === 'done') return;
    // Two delimiters in a row enclose an empty part, which busboy counts against the limit.
    if (this.state === 'delimited' && this.dashes === 0) this.countPart();
    if (this.state === 'field') {
      const value = this.fieldValue.length ? decodeText(this.fieldValue, 'binary', this.fieldCharset) : '';
      this.fieldValue = '';
      this.handlers.field(this.fieldName, value);
    } else if (this.state === 'file') {
      const sink = this.sink;
      this.sink = null;
      sink?.end();
    }
    this.state = 'delimited';
    this.dashes = 0;
  }
}

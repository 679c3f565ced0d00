// Streams a tar archive (optionally gzipped) to a file, one entry at a time: JSON values are
// serialised entry by entry and stored files are piped from disk, so a blob is never held in
// memory. The archive is written to a temporary name, fsynced, then renamed into place.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { open, rename, rm } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Header, Pack, ReadEntry } from 'tar';
import { syncFile } from '../../core/storage/file-store.js';

export class ArchiveWriter {
  private readonly pack: Pack;
  private readonly written: Promise<void>;
  private readonly temp: string;
  /** Entry bytes written so far (before compression). */
  bytes = 0;

  constructor(
    private readonly path: string,
    gzip: boolean,
    private readonly onBytes: (bytes: number) => void = () => undefined,
  ) {
    this.temp = `${path}.part`;
    mkdirSync(dirname(path), { recursive: true });
    this.pack = new Pack({ gzip: gzip ? { level: 6 } : undefined, portable: true });
    this.written = pipeline(this.pack, createWriteStream(this.temp));
    // The pipeline's failure surfaces in finish(); until then it must not be unhandled.
    this.written.catch(() => undefined);
  }

  /** A new entry of `size` bytes, queued in the archive; write exactly that many bytes into it. */
  private entry(path: string, size: number): NodeJS.WritableStream {
    const header = new Header({ path, mode: 0o644, size, mtime: new Date(), type: 'File', uname: '', gname: '', uid: 0, gid: 0 });
    const entry = new ReadEntry(header);
    this.pack.write(entry);
    // tar's entries are minipass streams; Node's pipeline drives them like any writable.
    return entry as unknown as NodeJS.WritableStream;
  }

  private counter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.bytes += chunk.length;
        this.onBytes(this.bytes);
        done(null, chunk);
      },
    });
  }

  async json(path: string, value: unknown): Promise<void> {
    const data = Buffer.from(JSON.stringify(value));
    await pipeline(Readable.from([data]), this.counter(), this.entry(path, data.length));
  }

  /** Copies a stored file; a file that changed size while being read fails the archive. */
  async file(path: string, absolute: string, signal?: AbortSignal): Promise<void> {
    const fh = await open(absolute, 'r');
    try {
      const { size } = await fh.stat();
      const entry = this.entry(path, size);
      if (size === 0) {
        entry.end();
        return;
      }
      let seen = 0;
      const count = new Transform({
        transform: (chunk: Buffer, _enc, done) => {
          seen += chunk.length;
          this.bytes += chunk.length;
          this.onBytes(this.bytes);
          done(null, chunk);
        },
      });
      await pipeline(createReadStream('', { fd: fh, start: 0, end: size - 1, autoClose: false }), count, entry, { signal });
      if (seen !== size) throw new Error(`${path}: the file changed while it was being archived`);
    } finally {
      await fh.close().catch(() => undefined);
    }
  }

  /** Ends the archive, makes it durable and moves it to its final name. */
  async finish(): Promise<void> {
    this.pack.end();
    await this.written;
    await syncFile(this.temp);
    await rename(this.temp, this.path);
  }

  /** Stops writing and removes the partial file. */
  async abort(): Promise<void> {
    this.pack.destroy?.();
    await this.written.catch(() => undefined);
    await rm(this.temp, { force: true });
  }
}

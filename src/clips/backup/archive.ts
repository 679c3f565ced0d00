// Reading a backup ZIP with yauzl, one entry at a time (nothing is extracted by name), plus
// the entry-name rules a restore enforces: no absolute paths, no "..", no backslashes, no links.
import yauzl, { type Entry, type ZipFile } from 'yauzl';

export type { Entry };

/** The archive itself is unreadable: a bad header, bad compressed data, sizes that lie. */
export class BadArchive extends Error {}

export function openZip(path: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    // Names stay raw bytes: the checks below decide, with messages of their own.
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (err, zip) => (err ? reject(err) : resolve(zip)));
  });
}

/** Walks the central directory; `visit` may be async (the next entry is read after it). */
export function eachEntry(zip: ZipFile, visit: (entry: Entry, name: string) => Promise<void> | void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      zip.removeAllListeners('entry');
      reject(e);
    };
    zip.on('error', (e: Error) => fail(new BadArchive(e.message)));
    zip.on('end', () => {
      if (!failed) resolve();
    });
    zip.on('entry', (entry: Entry) => {
      const raw = entry.fileName as unknown as Buffer | string;
      const name = typeof raw === 'string' ? raw : raw.toString('utf8');
      Promise.resolve()
        .then(() => visit(entry, name))
        .then(() => zip.readEntry(), fail);
    });
    zip.readEntry();
  });
}

/** The bytes of one entry; failures of the archive (not of the consumer) become BadArchive. */
export async function* entryChunks(zip: ZipFile, entry: Entry): AsyncGenerator<Buffer> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err ? reject(new BadArchive(err.message)) : resolve(s))),
  );
  const chunks = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<string | Buffer>;
      try {
        next = await chunks.next();
      } catch (e) {
        throw new BadArchive((e as Error).message);
      }
      if (next.done) return;
      yield next.value as Buffer;
    }
  } finally {
    (stream as NodeJS.ReadableStream & { destroy(): void }).destroy();
  }
}

export function closeZip(zip: ZipFile): void {
  try {
    zip.close();
  } catch {
    /* already closed */
  }
}

/** Why an entry name is refused, or null when it is a plain relative path. */
export function unsafeName(name: string): string | null {
  if (name.includes('\\')) return 'backslash in entry name';
  if (name.includes('\0')) return 'NUL in entry name';
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'absolute entry name';
  if (name.split('/').some((s) => s === '..')) return "'..' in entry name";
  return null;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** A symbolic link, by the Unix mode in the external attributes. */
export function isLink(entry: Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

export async function readAll(chunks: AsyncIterable<Buffer>, limit: number): Promise<Buffer> {
  const all: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.length;
    if (size > limit) throw new BadArchive(`entry larger than ${limit} bytes`);
    all.push(chunk);
  }
  return Buffer.concat(all);
}

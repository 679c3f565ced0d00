// The checks of POST /backup/restore (companion §10.2), all before anything live is touched:
// a readable ZIP with safe entry names and sizes, a manifest of a known format, a database.sql
// made only of INSERT statements (parsed into a staging database of the live schema, never
// executed), every blob's SHA-256 equal to its name, and bytes for every clip row. What passes
// is left staged — rows in the staging database, new bytes in tmp/, plugin sources — for the
// swap; anything that fails is a 400 and the staged files are removed.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { ZipFile } from 'yauzl';
import { badRequest } from '../../core/http/errors.js';
import { isTextType } from '../clips/content-type.js';
import { MAX_CLIP_BYTES, textExcerpt } from '../clips/service.js';
import type { ClipContext } from '../context.js';
import { HEAD_BYTES } from '../storage/blobs.js';
import { BadArchive, closeZip, eachEntry, entryChunks, isLink, openZip, readAll, unsafeName, type Entry } from './archive.js';
import { isBackupTable, StagingDb, type BackupSummary } from './repository.js';
import { NotABackupStatement, parseInsert, StatementSplitter, StatementTooLarge, type SqlValue } from './sql-text.js';
import { FORMAT_VERSION, PLUGIN_FILE } from './writer.js';

export const MAX_MANIFEST_BYTES = 1024 * 1024;
export const MAX_DATABASE_SQL_BYTES = 4 * 1024 ** 3;
export const MAX_PLUGIN_BYTES = 1024 * 1024;
export const MAX_ENTRIES = 1_000_000;
/** One statement (an inline-data row of an older backup at most ~8 MiB of bytes). */
export const MAX_STATEMENT_CHARS = 16 * 1024 * 1024;

const HASH = /^[0-9a-f]{64}$/;

export interface PreparedRestore {
  stagingPath: string;
  /** Verified bytes not in the blob store yet, by hash: moved into place by the swap. */
  newBlobs: Map<string, string>;
  /** Staged plugin sources (the new plugins/ folder). */
  pluginDir: string;
  summary: BackupSummary;
  discard(): Promise<void>;
}

const refused = (message: string) => badRequest(message);

/** SHA-256 and size of an entry, optionally written to `path` on the way (and fsynced). */
async function digest(chunks: AsyncIterable<Buffer> | Iterable<Buffer>, limit: number, path?: string): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  const file = path ? await open(path, 'wx', 0o644) : null;
  let size = 0;
  try {
    for await (const buf of chunks) {
      size += buf.length;
      if (size > limit) throw refused(`backup entry larger than ${limit} bytes`);
      hash.update(buf);
      if (file) await file.write(buf);
    }
    await file?.sync();
  } catch (e) {
    if (path) await rm(path, { force: true });
    throw e;
  } finally {
    await file?.close();
  }
  return { hash: hash.digest('hex'), size };
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

interface Inventory {
  manifest: Entry | null;
  database: Entry | null;
  entries: number;
}

/** Pass one over the central directory: names, links, sizes — no data read yet. */
async function inventory(zip: ZipFile, maxTotal: number): Promise<Inventory> {
  const found: Inventory = { manifest: null, database: null, entries: 0 };
  let total = 0;
  await eachEntry(zip, (entry, name) => {
    if (++found.entries > MAX_ENTRIES) throw refused(`backup has more than ${MAX_ENTRIES} entries`);
    const unsafe = unsafeName(name);
    if (unsafe) throw refused(`unsafe backup entry ${JSON.stringify(name)}: ${unsafe}`);
    if (isLink(entry)) throw refused(`backup entry ${JSON.stringify(name)} is a link`);
    if (entry.isEncrypted()) throw refused(`backup entry ${JSON.stringify(name)} is encrypted`);
    total += entry.uncompressedSize;
    if (total > maxTotal) throw refused(`backup unpacks to more than ${maxTotal} bytes`);
    const limit = name === 'manifest.json' ? MAX_MANIFEST_BYTES : name === 'database.sql' ? MAX_DATABASE_SQL_BYTES : name.startsWith('blobs/') ? MAX_CLIP_BYTES : name.startsWith('plugins/') ? MAX_PLUGIN_BYTES : Infinity;
    if (entry.uncompressedSize > limit) throw refused(`backup entry ${name} is larger than ${limit} bytes`);
    if (name === 'manifest.json' || name === 'database.sql') {
      const key = name === 'manifest.json' ? 'manifest' : 'database';
      if (found[key]) throw refused(`backup has two ${name} entries`);
      found[key] = entry;
    }
  });
  return found;
}

function checkManifest(bytes: Buffer, log: (msg: string) => void): void {
  let manifest: unknown;
  try {
    manifest = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw refused('failed to parse manifest');
  }
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) throw refused('failed to parse manifest');
  const m = manifest as Record<string, unknown>;
  const version = m.format_version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) throw refused('unsupported backup: format_version must be a positive integer');
  if (version > FORMAT_VERSION) log(`restore: backup format_version ${version} is newer than ${FORMAT_VERSION}; restoring what this version understands`);
  if (m.blob_store !== undefined && m.blob_store !== 'sha256') throw refused(`unsupported backup: blob_store ${String(m.blob_store)}`);
}

/** database.sql → staging rows; inline clip bytes (older backups) are staged as blobs. */
async function loadRows(chunks: AsyncIterable<Buffer>, staging: StagingDb, stageInline: (bytes: Buffer) => Promise<{ hash: string; size: number }>): Promise<void> {
  const splitter = new StatementSplitter(MAX_STATEMENT_CHARS);
  const decoder = new StringDecoder('utf8');
  const apply = async (statements: { sql: string; line: number }[]) => {
    for (const { sql, line } of statements) {
      const row = parseInsert(sql);
      if (!row) throw new NotABackupStatement(line);
      if (!isBackupTable(row.table)) continue; // api_keys and anything unknown
      const known = staging.columnsOf(row.table);
      const columns: string[] = [];
      const values: SqlValue[] = [];
      let inline: SqlValue | undefined;
      row.columns.forEach((c, i) => {
        if (row.table === 'clips' && c === 'data') inline = row.values[i];
        else if (known.has(c) && !columns.includes(c)) {
          columns.push(c);
          values.push(row.values[i]);
        }
      });
      if (inline !== undefined && inline !== null) {
        const { hash, size } = await stageInline(Buffer.isBuffer(inline) ? inline : Buffer.from(String(inline), 'utf8'));
        for (const [c, v] of [['content_hash', hash], ['size', size]] as const) {
          const at = columns.indexOf(c);
          if (at >= 0) values[at] = v;
          else {
            columns.push(c);
            values.push(v);
          }
        }
      }
      try {
        staging.insert(row.table, columns, values);
      } catch (e) {
        throw refused(`invalid ${row.table} row at line ${line}: ${(e as Error).message}`);
      }
    }
  };
  try {
    for await (const chunk of chunks) await apply(splitter.feed(decoder.write(chunk)));
    await apply(splitter.feed(decoder.end(), true));
  } catch (e) {
    if (e instanceof NotABackupStatement || e instanceof StatementTooLarge) throw refused(e.message);
    throw e;
  }
}

export async function prepareRestore(zipPath: string, ctx: ClipContext, archiveLimit: number, log: (msg: string) => void): Promise<PreparedRestore> {
  const dir = join(ctx.blobs.tmpDir, `restore-${randomBytes(8).toString('hex')}`);
  const pluginDir = join(dir, 'plugins');
  mkdirSync(pluginDir, { recursive: true });
  const newBlobs = new Map<string, string>();
  const discard = () => rm(dir, { recursive: true, force: true });
  let staging: StagingDb | null = null;
  let zip: ZipFile | null = null;
  try {
    try {
      zip = await openZip(zipPath);
    } catch {
      throw refused('invalid backup file');
    }
    const found = await inventory(zip, 4 * archiveLimit);
    if (!found.manifest) throw refused('not a backup: missing manifest');
    checkManifest(await readAll(entryChunks(zip, found.manifest), MAX_MANIFEST_BYTES), log);
    if (!found.database) throw refused('backup is corrupted (missing database.sql)');

    staging = await StagingDb.create(join(dir, 'staging.db'));
    const stagingDb = staging;
    /** Hash and size of every content the archive proves it has. */
    const proven = new Map<string, number>();
    let inlineSeq = 0;
    await loadRows(entryChunks(zip, found.database), stagingDb, async (bytes) => {
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (!newBlobs.has(hash) && !ctx.blobs.exists(hash)) {
        const path = join(dir, `inline-${++inlineSeq}`);
        await digest([bytes], MAX_CLIP_BYTES, path);
        newBlobs.set(hash, path);
      }
      proven.set(hash, bytes.length);
      return { hash, size: bytes.length };
    });

    // Pass two: every blob is hashed (kept only when a row needs bytes the store lacks),
    // every safe plugin source is staged.
    let blobSeq = 0;
    closeZip(zip);
    zip = await openZip(zipPath);
    const second = zip;
    await eachEntry(second, async (entry, name) => {
      if (name.startsWith('blobs/') && !name.endsWith('/')) {
        const claimed = name.slice('blobs/'.length);
        if (!HASH.test(claimed)) throw refused(`invalid blob entry name: ${name}`);
        const keep = stagingDb.needsContent(claimed) && !ctx.blobs.exists(claimed) && !newBlobs.has(claimed);
        const path = keep ? join(dir, `blob-${++blobSeq}`) : undefined;
        const { hash, size } = await digest(entryChunks(second, entry), MAX_CLIP_BYTES, path);
        if (hash !== claimed) {
          if (path) await rm(path, { force: true });
          throw refused(`backup blob ${claimed} does not match its content (sha256 ${hash})`);
        }
        proven.set(hash, size);
        if (path) newBlobs.set(hash, path);
      } else if (name.startsWith('plugins/') && PLUGIN_FILE.test(name.slice('plugins/'.length))) {
        await writeFile(join(pluginDir, name.slice('plugins/'.length)), await readAll(entryChunks(second, entry), MAX_PLUGIN_BYTES));
      }
    });

    // Every row is backed by bytes of the archive; size and search excerpt come from them.
    for (let after = 0, page = stagingDb.clipsAfter(after); page.length > 0; page = stagingDb.clipsAfter(after)) {
      for (const clip of page) {
        const size = proven.get(clip.content_hash);
        if (size === undefined) throw refused(`backup is missing data for clip ${clip.id}`);
        const text = isTextType(clip.content_type)
          ? textExcerpt(clip.content_type, await readHead(newBlobs.get(clip.content_hash) ?? ctx.blobs.pathOf(clip.content_hash)))
          : null;
        stagingDb.setContent(clip.id, { hash: clip.content_hash, size, text });
        after = clip.id;
      }
    }
    const dangling = stagingDb.danglingReferences();
    if (dangling.length > 0) throw refused(`backup is inconsistent: ${dangling[0]}`);
    const summary = stagingDb.summary();
    stagingDb.finish();
    return { stagingPath: stagingDb.path, newBlobs, pluginDir, summary, discard };
  } catch (e) {
    staging?.close();
    await discard();
    if (e instanceof BadArchive) throw refused(`invalid backup file: ${e.message}`);
    throw e;
  } finally {
    if (zip) closeZip(zip);
  }
}

// Reads an untrusted archive entry by entry (gzip is detected). Every entry name is checked
// before its bytes are touched: no absolute paths, no "..", no backslashes or control
// characters, only regular files (directories are skipped; links and devices refuse the whole
// archive). manifest.json must come first and JSON entries are bounded in size.
import type { Readable } from 'node:stream';
import { Parser, type ReadEntry } from 'tar';
import { ARCHIVE_LIMITS, SCHEMA_PATHS, SHA1, type Kind, type SchemaKind } from './format.js';

export class ArchiveError extends Error {}

export type EntryKind = 'manifest' | 'schema' | Kind | 'blob' | 'preview' | 'other';

export interface ArchiveEntry {
  path: string;
  kind: EntryKind;
  size: number;
  /** schema kind, entity export id, blob hash or preview id; '' for the manifest and others. */
  key: string;
  stream: ReadEntry;
}

const ENTITY_DIR: Record<string, Kind> = { groups: 'group', notes: 'note', resources: 'resource', series: 'series' };
const SCHEMA_BY_PATH = new Map(Object.entries(SCHEMA_PATHS).map(([k, p]) => [p, k as SchemaKind]));
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile']);

/** Checks one entry name and says what it holds; throws ArchiveError for unsafe names. */
export function classifyPath(raw: string): { path: string; kind: EntryKind; key: string } {
  // eslint-disable-next-line no-control-regex
  if (raw === '' || raw.length > ARCHIVE_LIMITS.pathLength || /[\u0000-\u001f\u007f\\]/.test(raw)) {
    throw new ArchiveError(`archive entry "${raw.slice(0, 80)}" has an invalid name`);
  }
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) throw new ArchiveError(`archive entry "${raw.slice(0, 80)}" is an absolute path`);
  const segments = raw.replace(/^(\.\/)+/, '').split('/');
  if (segments.some((s) => s === '..')) throw new ArchiveError(`archive entry "${raw.slice(0, 80)}" climbs out of the archive with ".."`);
  const path = segments.filter((s) => s !== '' && s !== '.').join('/');
  if (path === 'manifest.json') return { path, kind: 'manifest', key: '' };
  const schema = SCHEMA_BY_PATH.get(path);
  if (schema) return { path, kind: 'schema', key: schema };
  const [dir, name, ...rest] = path.split('/');
  if (rest.length === 0 && name !== undefined) {
    const kind = ENTITY_DIR[dir];
    if (kind && name.endsWith('.json') && SAFE_ID.test(name.slice(0, -5))) return { path, kind, key: name.slice(0, -5) };
    if (dir === 'blobs' && SHA1.test(name)) return { path, kind: 'blob', key: name };
    if (dir === 'previews' && SAFE_ID.test(name)) return { path, kind: 'preview', key: name };
  }
  return { path, kind: 'other', key: '' };
}

/** The largest JSON entry accepted for an entry kind. */
export function jsonLimit(kind: EntryKind): number {
  return kind === 'manifest' ? ARCHIVE_LIMITS.manifestBytes : ARCHIVE_LIMITS.jsonBytes;
}

export const isJsonKind = (kind: EntryKind) => kind === 'manifest' || kind === 'schema' || kind === 'group' || kind === 'note' || kind === 'resource' || kind === 'series';

/** Reads a JSON entry whose size was checked; a syntax error names the entry. */
export async function readJson(entry: ArchiveEntry): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry.stream) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (e) {
    throw new ArchiveError(`${entry.path} is not valid JSON: ${(e as Error).message}`);
  }
}

export interface ReadOptions {
  /** Total entry bytes (uncompressed) the archive may hold. */
  maxContentBytes: number;
}

/**
 * Walks the archive, calling `onEntry` for every regular file in order. `onEntry` must consume
 * or drain the entry's stream. The first failure (unsafe entry, bad archive, a handler error)
 * stops reading and rejects.
 */
export function readArchive(source: Readable, options: ReadOptions, onEntry: (entry: ArchiveEntry) => Promise<void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed = false;
    let sawFile = false;
    let content = 0;
    let chain = Promise.resolve();
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      source.unpipe(parser);
      source.destroy();
      reject(e instanceof ArchiveError ? e : new ArchiveError(`the archive could not be read: ${(e as Error).message ?? String(e)}`));
    };
    const parser = new Parser({
      strict: true,
      onwarn: (_code, message) => fail(new ArchiveError(`not a valid tar archive: ${String(message)}`)),
      onReadEntry: (raw: ReadEntry) => {
        if (failed) {
          raw.resume();
          return;
        }
        try {
          if (raw.type === 'Directory') {
            classifyPath(raw.path);
            raw.resume();
            return;
          }
          if (!FILE_TYPES.has(raw.type)) throw new ArchiveError(`archive entry "${raw.path.slice(0, 80)}" is a ${raw.type}; only regular files are accepted`);
          const info = classifyPath(raw.path);
          const size = raw.size ?? 0;
          if (!sawFile && info.kind !== 'manifest') throw new ArchiveError('manifest.json must be the first entry of the archive');
          if (sawFile && info.kind === 'manifest') throw new ArchiveError('the archive holds more than one manifest.json');
          sawFile = true;
          content += size;
          if (content > options.maxContentBytes) throw new ArchiveError(`the archive expands to more than ${options.maxContentBytes} bytes`);
          if (isJsonKind(info.kind) && size > jsonLimit(info.kind)) throw new ArchiveError(`${info.path} is too large (${size} bytes; at most ${jsonLimit(info.kind)})`);
          const entry: ArchiveEntry = { ...info, size, stream: raw };
          chain = chain.then(() => (failed ? void raw.resume() : onEntry(entry))).catch(fail);
        } catch (e) {
          raw.resume();
          fail(e);
        }
      },
    });
    parser.on('error', (e: Error) => fail(new ArchiveError(`not a valid tar archive: ${e.message}`)));
    parser.on('end', () => {
      void chain.then(() => {
        if (failed) return;
        if (!sawFile) fail(new ArchiveError('the archive is empty; manifest.json is missing'));
        else resolve();
      });
    });
    source.on('error', fail);
    source.pipe(parser);
  });
}

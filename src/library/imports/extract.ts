// Extraction of a staged archive (the first half of the `group-import-parse` job): entity JSON
// goes to json/<kind>/<n>.json, blobs are hashed while they stream to blobs/<sha1> (a blob whose
// bytes do not match its name is dropped with a warning), previews go to previews/<id>, and
// the catalogue of everything is returned for planning. Names on disk never come from the
// archive except hashes and checked preview ids.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { syncFile } from '../../core/storage/file-store.js';
import { readArchive, readJson, type ArchiveEntry } from '../archive/reader.js';
import { ARCHIVE_LIMITS, type SchemaKind } from '../archive/format.js';
import { groupEntry, noteEntry, readManifest, resourceEntry, schemaEntries, seriesEntry, type ArchiveIndex } from './archive-index.js';
import { isObj } from './fields.js';

export interface ExtractOptions {
  maxImportSize: number;
  signal: AbortSignal;
  onProgress: (bytes: number, total: number) => void;
}

/** Writes an entry to `path` while hashing it; returns the SHA-1. */
async function streamTo(entry: ArchiveEntry, path: string, signal: AbortSignal): Promise<string> {
  const hash = createHash('sha1');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(entry.stream as unknown as NodeJS.ReadableStream, tap, createWriteStream(path), { signal });
  await syncFile(path);
  return hash.digest('hex');
}

export async function extractArchive(dir: string, archive: string, o: ExtractOptions): Promise<ArchiveIndex> {
  const index: ArchiveIndex = {
    manifest: { schemaVersion: 1, createdAt: '', createdBy: '', sourceInstanceId: null, roots: [], dangling: [], warnings: [] },
    schemas: {},
    groups: [],
    notes: [],
    resources: [],
    series: [],
    blobs: {},
    previews: [],
    warnings: [],
  };
  for (const sub of ['json/groups', 'json/notes', 'json/resources', 'json/series', 'json/schemas', 'blobs', 'previews']) await mkdir(join(dir, sub), { recursive: true });
  const total = (await stat(archive)).size;
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      o.onProgress(read, total);
      done(null, chunk);
    },
  });
  const source = createReadStream(archive).pipe(counter);
  const seen = new Set<string>();
  let seq = 0;
  await readArchive(source, { maxContentBytes: o.maxImportSize * ARCHIVE_LIMITS.gzipExpansion }, async (entry) => {
    if (o.signal.aborted) throw new Error('Cancelled');
    if (entry.kind === 'blob' || entry.kind === 'preview') {
      const name = entry.kind === 'blob' ? `blobs/${entry.key}` : `previews/${entry.key}`;
      if (seen.has(name)) {
        entry.stream.resume();
        index.warnings.push(`${entry.path} appears twice; the second copy was ignored`);
        return;
      }
      seen.add(name);
      const temp = join(dir, `${name}.part`);
      const sha1 = await streamTo(entry, temp, o.signal);
      if (entry.kind === 'blob' && sha1 !== entry.key) {
        await rm(temp, { force: true });
        index.warnings.push(`${entry.path} does not match its hash (the bytes hash to ${sha1}); it was ignored`);
        return;
      }
      await rename(temp, join(dir, name));
      if (entry.kind === 'blob') index.blobs[entry.key] = entry.size;
      else index.previews.push(entry.key);
      return;
    }
    if (entry.kind === 'other') {
      entry.stream.resume();
      index.warnings.push(`unknown archive entry ${entry.path} was ignored`);
      return;
    }
    const value = await readJson(entry);
    if (entry.kind === 'manifest') {
      index.manifest = readManifest(value);
      return;
    }
    if (seen.has(entry.path)) {
      index.warnings.push(`${entry.path} appears twice; the second copy was ignored`);
      return;
    }
    seen.add(entry.path);
    if (entry.kind === 'schema') {
      const kind = entry.key as SchemaKind;
      const file = `json/schemas/${kind}.json`;
      index.schemas[kind] = { file, entries: schemaEntries(kind, value) };
      await writeFile(join(dir, file), JSON.stringify(value));
      return;
    }
    if (!isObj(value)) {
      index.warnings.push(`${entry.path} does not hold a JSON object; it was ignored`);
      return;
    }
    const file = `json/${entry.kind === 'series' ? 'series' : `${entry.kind}s`}/${++seq}.json`;
    await writeFile(join(dir, file), JSON.stringify(value));
    if (entry.kind === 'group') index.groups.push(groupEntry(value, entry.key, file));
    else if (entry.kind === 'note') index.notes.push(noteEntry(value, entry.key, file));
    else if (entry.kind === 'resource') index.resources.push(resourceEntry(value, entry.key, file));
    else if (entry.kind === 'series') index.series.push(seriesEntry(value, entry.key, file));
  });
  checkUnique(index);
  return index;
}

/** Two entities claiming one export id would make every reference ambiguous: the first wins. */
function checkUnique(index: ArchiveIndex): void {
  const dedupe = <T extends { id: string }>(label: string, list: T[]): T[] => {
    const ids = new Set<string>();
    return list.filter((e) => {
      if (!ids.has(e.id)) return ids.add(e.id);
      index.warnings.push(`two ${label} entries share the export id ${e.id}; the second was ignored`);
      return false;
    });
  };
  index.groups = dedupe('group', index.groups);
  index.notes = dedupe('note', index.notes);
  index.resources = dedupe('resource', index.resources);
  index.series = dedupe('series', index.series);
}

// The `group-export` job: discover what to export, check that every blob is still on disk, then
// stream the archive (manifest first, schema lists, groups, notes, resources, series, blobs,
// previews) and keep a record so it stays downloadable for the export retention. Progress is
// the bytes written against the estimate; a cancelled or failed export leaves no file behind.
import { stat } from 'node:fs/promises';
import type { JobKind } from '../../core/jobs/queue.js';
import type { Principal } from '../auth/principal.js';
import type { Filesystems } from '../resources/storage.js';
import { slices } from '../archive/batches.js';
import { ArchiveWriter } from '../archive/writer.js';
import { SCHEMA_KINDS, SCHEMA_PATHS, blobPath, entityPath, previewPath, type SchemaKind } from '../archive/format.js';
import { collectExport, estimate, type ExportSet } from './collect.js';
import type { ExportOptions } from './options.js';
import type { ExportRepository } from './repository.js';
import { Names, groupPayloads, manifestOf, notePayloads, resourcePayloads, schemaPayloads, seriesPayloads } from './payloads.js';
import { ExportStore } from './store.js';

export const GROUP_EXPORT = 'group-export';
const ENTITY_BATCH = 200;

export interface ExportPayload {
  options: ExportOptions;
  principal: Principal;
}

export interface ExportKindDeps {
  repo: ExportRepository;
  fs: Filesystems;
  store: ExportStore;
  ownerOf: (jobId: string) => number | null | undefined;
}

/** Which schema lists a toggle set writes. */
function schemaFiles(set: ExportSet): SchemaKind[] {
  const d = set.options.schemaDefs;
  return SCHEMA_KINDS.filter((k) => (k === 'tags' ? d.tags : k === 'group_relation_types' ? d.group_relation_types : d.categories_and_types));
}

/** Marks blobs whose file is gone; each becomes a warning instead of failing the export. */
async function checkBlobs(fs: Filesystems, set: ExportSet): Promise<void> {
  for (const blob of set.blobs.values()) {
    let present = false;
    try {
      present = (await stat(fs.get(blob.storage).resolve(blob.location)).catch(() => null))?.isFile() ?? false;
    } catch {
      present = false;
    }
    if (!present) {
      blob.missing = true;
      set.warnings.push(`file of hash ${blob.hash} (${blob.location}) is missing; exported without bytes`);
    }
  }
}

export function exportKind(deps: ExportKindDeps): JobKind<ExportPayload> {
  return {
    pausable: false,
    runningStatus: 'processing',
    async run(payload, ctx, job) {
      const { repo, fs, store } = deps;
      ctx.phase('preparing');
      const set = await collectExport(repo, fs, payload.principal, payload.options);
      await checkBlobs(fs, set);
      for (const w of set.warnings) ctx.warn(w);
      const total = estimate(set).estimatedBytes;
      ctx.progress(0, total);
      const gzip = payload.options.gzip;
      const writer = new ArchiveWriter(store.archiveFile(job.id, gzip), gzip, (bytes) => ctx.progress(bytes, Math.max(total, bytes)));
      const stop = () => {
        if (ctx.signal.aborted) throw new Error('Cancelled');
      };
      const names = new Names(repo);
      try {
        await writer.json('manifest.json', manifestOf(set, new Date().toISOString()));
        const lists = schemaFiles(set);
        for (const [i, kind] of lists.entries()) {
          ctx.phase('writing schema definitions', i, lists.length);
          await writer.json(SCHEMA_PATHS[kind], await schemaPayloads(repo, set, kind));
        }
        const section = async <T>(label: string, kind: 'group' | 'note' | 'resource', items: T[], load: (batch: T[]) => Promise<{ export_id: string }[]>) => {
          let done = 0;
          ctx.phase(`writing ${label}`, 0, items.length);
          for (const batch of slices(items, ENTITY_BATCH)) {
            stop();
            for (const p of await load(batch)) await writer.json(entityPath(kind, p.export_id), p);
            done += batch.length;
            ctx.phase(`writing ${label}`, done, items.length);
          }
        };
        await section('groups', 'group', set.groups, (b) => groupPayloads(repo, set, names, b));
        await section('notes', 'note', set.notes, (b) => notePayloads(repo, set, names, b));
        await section('resources', 'resource', set.resources, (b) => resourcePayloads(repo, set, names, b));
        ctx.phase('writing series', 0, set.series.length);
        for (const s of await seriesPayloads(repo, set)) await writer.json(entityPath('series', s.export_id), s);
        const blobs = [...set.blobs.values()].filter((b) => !b.missing);
        for (const [i, blob] of blobs.entries()) {
          stop();
          ctx.phase('writing blobs', i, blobs.length);
          await writer.file(blobPath(blob.hash), fs.get(blob.storage).resolve(blob.location), ctx.signal);
        }
        const previews = [...set.previews.values()].flat();
        for (const [i, p] of previews.entries()) {
          stop();
          ctx.phase('writing previews', i, previews.length);
          await writer.file(previewPath(p.exportId), p.file, ctx.signal);
        }
        stop();
        await writer.finish();
      } catch (e) {
        await writer.abort();
        throw e;
      }
      const resultPath = ExportStore.resultPath(job.id, gzip);
      const size = (await stat(store.archiveFile(job.id, gzip))).size;
      await store.save({ id: job.id, ownerId: deps.ownerOf(job.id) ?? null, createdAt: job.createdAt, completedAt: new Date().toISOString(), gzip, resultPath, size });
      ctx.progress(writer.bytes, writer.bytes);
      ctx.phase('completed');
      return { resultPath };
    },
  };
}

// Apply phase "creating resources". For each resource of the archive:
// - its GUID is already here → the GUID policy (merge: fill empty fields, add tags and missing
//   meta keys; skip: reuse untouched; replace: overwrite the metadata, never the file);
// - else its hash is already here → `skip` reuses that resource for wiring, `duplicate` makes a
//   new row sharing the stored file;
// - else a new resource: its bytes come from the archive through the FileStore (renamed into
//   the content-addressed place as the transaction's last step, like an upload), or from a file
//   this library already has with that hash, or — when acknowledged — nowhere (a metadata-only
//   row). Versions, series membership (with meta inheritance), tags and cached previews follow.
// The duplicate check runs under the same per-hash lock uploads use.
import { copyFile, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tx } from '../../../core/db/repository.js';
import { nowIso, parseJson } from '../../../core/db/values.js';
import { SNIFF_BYTES, contentLocation } from '../../../core/storage/file-store.js';
import { bareMime, extensionFor, sniffMime } from '../../../core/storage/sniff.js';
import { validName } from '../../common/names.js';
import type { Database } from '../../schema/database.js';
import { editMemberMeta, joinSeries } from '../../resources/series-meta.js';
import { trimName } from '../../resources/ingest.js';
import { blobHash } from '../../archive/format.js';
import type { ResourceEntry } from '../archive-index.js';
import { int, isObj, obj, str, strList, strOrNull, timestamp, type Obj } from '../fields.js';
import type { ImportResourceRepository } from './resources.repository.js';
import { checkImportedMeta, mergedMeta } from './rows.js';
import type { ApplyRun } from './run.js';

type Trx = Tx<Database>;
const RESOURCE_CARRIER = { table: 'resource_categories', column: 'resource_category_id', label: 'resource category' } as const;

interface FileRef {
  location: string;
  storage: string | null;
  mime: string;
  /** A staged archive blob that must be placed at `location`. */
  staged: string | null;
  missing: boolean;
}

interface VersionIn {
  exportId: string | null;
  number: number;
  hash: string;
  size: number;
  mime: string;
  width: number;
  height: number;
  comment: string;
  createdAt: string | null;
}

async function head(path: string): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await fh.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Where the bytes of `hash` come from: this library, the archive, or nowhere. */
async function fileFor(run: ApplyRun, hash: string, claimedType: string): Promise<FileRef> {
  const files = run.deps.resourceRepo;
  const local = (await files.withHash(hash)) ?? (await files.versionWithHash(hash));
  if (local) return { location: local.location, storage: local.storage_location, mime: local.content_type, staged: null, missing: false };
  const staged = run.blobFile(hash);
  if (staged) {
    const mime = await sniffMime(await head(staged));
    return { location: contentLocation(hash, extensionFor(mime)), storage: null, mime, staged, missing: false };
  }
  const mime = claimedType || 'application/octet-stream';
  const location = contentLocation(hash, extensionFor(mime));
  // A file placed by an earlier, interrupted run of this import is still in its place.
  const placed = await run.deps.resources.ctx.fs.main.exists(location);
  return { location, storage: null, mime, staged: null, missing: !placed };
}

function versionsOf(p: Obj): VersionIn[] {
  const list = (Array.isArray(p.versions) ? p.versions : []).filter(isObj);
  return list
    .map((v) => ({
      exportId: strOrNull(v.version_export_id),
      number: int(v.version_number),
      hash: blobHash(v.hash) ?? '',
      size: Math.max(0, int(v.file_size)),
      mime: str(v.content_type).slice(0, 255),
      width: Math.max(0, int(v.width)),
      height: Math.max(0, int(v.height)),
      comment: str(v.comment).slice(0, 10_000),
      createdAt: timestamp(v.created_at),
    }))
    .filter((v) => v.hash !== '' && v.number > 0)
    .sort((a, b) => a.number - b.number);
}

/** The series of an export id: reused by slug, or created from the archive on first use. */
async function seriesFor(run: ApplyRun, repo: ImportResourceRepository, ref: string | null): Promise<number | null> {
  if (ref === null) return null;
  const known = run.series.get(ref);
  if (known !== undefined) return known;
  const entry = run.index.series.find((s) => s.id === ref);
  if (!entry) return null;
  const p = await run.payload(entry.file);
  let slug: string;
  try {
    slug = validName(entry.slug, 'slug');
  } catch {
    run.warn(`series "${entry.name.slice(0, 80)}" has an invalid slug; its resources were imported without it`);
    return null;
  }
  const inserted = await repo.insertSeries({ ...run.stamp(p), name: entry.name.trim() || slug, slug, meta: JSON.stringify(obj(p.meta)) });
  const id = inserted ?? (await repo.seriesIdOf(slug));
  if (inserted !== undefined) run.result.created_series++;
  else run.result.reused_series++;
  run.series.set(ref, id);
  return id;
}

/** Meta columns of a series member whose effective meta should be `meta`. */
async function memberMeta(repo: ImportResourceRepository, tx: Trx, seriesId: number, meta: Obj): Promise<{ meta: string; own_meta: string }> {
  const shared = parseJson<Obj>(await repo.seriesMeta(seriesId), {});
  // An empty series takes its first member's meta (the upload rule); otherwise the member keeps
  // exactly its effective meta, series keys it lacks becoming null overrides.
  return Object.keys(shared).length === 0 ? joinSeries(tx, seriesId, meta) : editMemberMeta(tx, seriesId, meta);
}

async function copyPreviews(run: ApplyRun, p: Obj, resourceId: number, hash: string): Promise<void> {
  const list = (Array.isArray(p.previews) ? p.previews : []).filter(isObj);
  if (list.length === 0) return;
  const dir = run.deps.resources.ctx.previews.dir(resourceId);
  await mkdir(dir, { recursive: true });
  for (const pv of list) {
    const src = run.previewFile(str(pv.preview_export_id));
    if (!src) continue;
    const w = Math.max(0, int(pv.width));
    const h = Math.max(0, int(pv.height));
    await copyFile(src, join(dir, w === 0 && h === 0 ? 'source.jpg' : `${hash}-${w}x${h}.jpg`));
    run.result.created_previews++;
  }
}

function resourceName(run: ApplyRun, raw: string, fallback: string): string {
  try {
    return validName(raw);
  } catch {
    return trimName(raw || fallback);
  }
}

async function createResource(run: ApplyRun, r: ResourceEntry, p: Obj, ownerId: number | null, tags: number[], shareFrom: FileRef | null): Promise<void> {
  const { ctx, ingest } = run.deps.resources;
  const claimed = str(p.content_type).slice(0, 255);
  const current = shareFrom ?? (await fileFor(run, r.hash, claimed));
  const versions = versionsOf(p);
  const files = new Map<string, FileRef>([[r.hash, current]]);
  for (const v of versions) if (!files.has(v.hash)) files.set(v.hash, await fileFor(run, v.hash, v.mime));
  if (current.missing) {
    run.result.skipped_missing_bytes++;
    run.warn(`resource "${r.name.slice(0, 80)}" (${r.hash}) was imported without its file: the bytes are neither in the archive nor in this library`);
  }
  const meta = obj(p.meta);
  const width = Math.max(0, int(p.width));
  const height = Math.max(0, int(p.height));
  const fileSize = Math.max(0, int(p.file_size, 0));
  const mime = current.missing ? current.mime : current.mime || claimed;
  const label = `resource "${r.name.slice(0, 80)}"`;
  const id = await run.transactor.run(async (tx) => {
    const repo = run.deps.resourceRepo.in(tx);
    const rows = run.repo.in(tx);
    const seriesId = await seriesFor(run, repo, r.seriesRef);
    const metaCols = seriesId !== null ? await memberMeta(repo, tx, seriesId, meta) : { meta: JSON.stringify(meta), own_meta: '{}' };
    const categoryId = run.vocabId('resource_categories', r.categoryRef, r.categoryName) ?? (await ingest.categoryFor(tx, {}, { contentType: mime, fileSize, width, height }));
    await checkImportedMeta(run, tx, RESOURCE_CARRIER, categoryId, parseJson<Obj>(metaCols.meta, {}), label);
    const stamp = run.stamp(p);
    const resourceId = await repo.insertResource({
      ...stamp,
      guid: await run.guidFor(rows, 'resources', p.guid),
      name: resourceName(run, r.name, r.hash),
      original_name: str(p.original_name),
      original_location: str(p.original_location),
      hash: r.hash,
      hash_type: 'SHA1',
      location: current.location,
      storage_location: current.storage,
      description: str(p.description),
      ...metaCols,
      width,
      height,
      file_size: fileSize,
      category: str(p.category),
      content_type: mime,
      content_category: str(p.content_category) || bareMime(mime).split('/')[0],
      resource_category_id: categoryId,
      series_id: seriesId,
      owner_id: ownerId,
      current_version_id: null,
    });
    const wanted = versions.length
      ? versions
      : [{ exportId: null, number: 1, hash: r.hash, size: fileSize, mime, width, height, comment: 'Original', createdAt: stamp.created_at }];
    let currentVersion: number | null = null;
    for (const v of wanted) {
      const f = files.get(v.hash)!;
      const versionId = await repo.insertVersion({
        created_at: v.createdAt ?? stamp.created_at,
        updated_at: v.createdAt ?? stamp.created_at,
        created_by_user_id: stamp.created_by_user_id,
        resource_id: resourceId,
        version_number: v.number,
        hash: v.hash,
        hash_type: 'SHA1',
        file_size: v.size,
        content_type: f.missing ? v.mime || f.mime : f.mime,
        width: v.width,
        height: v.height,
        location: f.location,
        storage_location: f.storage,
        comment: v.comment,
      });
      if (v.exportId !== null && v.exportId === strOrNull(p.current_version_ref)) currentVersion = versionId;
      else if (currentVersion === null && v === wanted[wanted.length - 1]) currentVersion = versionId;
    }
    await repo.updateResource(resourceId, { current_version_id: currentVersion });
    await rows.setTags('resource', resourceId, tags);
    // The files reach their place last, when every row is in (the upload rule). The staged
    // blob stays: if this transaction rolls back or the process dies before COMMIT, the next
    // apply of the import needs it again.
    for (const f of files.values()) if (f.staged) await ctx.fs.main.placeCopy(f.staged, f.location);
    return resourceId;
  });
  run.result.created_versions += versions.length;
  run.result.created_resources++;
  run.result.created_resource_ids.push(id);
  run.resources.set(r.id, { id, touched: true });
  await copyPreviews(run, p, id, r.hash);
  if (!current.missing) ctx.fileChanged(id, mime);
}

async function existingByGuid(run: ApplyRun, r: ResourceEntry, p: Obj, id: number, tags: number[]): Promise<void> {
  run.result.linked_by_guid_resources++;
  if (run.d.guidPolicy === 'skip') {
    run.result.skipped_by_policy_resources++;
    run.resources.set(r.id, { id, touched: false });
    return;
  }
  const meta = obj(p.meta);
  const categoryId = run.vocabId('resource_categories', r.categoryRef, r.categoryName);
  await run.transactor.run(async (tx) => {
    const repo = run.deps.resourceRepo.in(tx);
    const row = await repo.resource(id);
    const replace = run.d.guidPolicy === 'replace';
    const wantedMeta = replace ? meta : mergedMeta(row.meta, meta);
    const metaCols = row.series_id !== null ? await editMemberMeta(tx, row.series_id, wantedMeta) : { meta: JSON.stringify(wantedMeta), own_meta: '{}' };
    const text = (field: 'description' | 'original_name' | 'original_location') => (replace ? str(p[field]) : row[field] || str(p[field]));
    await repo.updateResource(id, {
      name: replace ? resourceName(run, r.name, row.name) : row.name,
      description: text('description'),
      original_name: text('original_name'),
      original_location: text('original_location'),
      category: replace ? str(p.category) : row.category || str(p.category),
      resource_category_id: replace && categoryId !== null ? categoryId : row.resource_category_id,
      ...metaCols,
      updated_at: nowIso(),
    });
    await run.repo.in(tx).setTags('resource', id, tags, replace);
    if (replace && row.hash !== r.hash) run.warn(`resource "${row.name.slice(0, 80)}" (#${id}) was replaced from the archive, but its file was kept (the archive has other bytes)`);
  });
  if (run.d.guidPolicy === 'merge') run.result.merged_resources++;
  run.resources.set(r.id, { id, touched: true });
}

function queueLinks(run: ApplyRun, id: string, p: Obj): void {
  for (const group of strList(p.groups)) run.links.push({ table: 'groups_related_resources', group, other: id });
  for (const note of strList(p.notes)) run.links.push({ table: 'resource_notes', group: note, other: id });
}

async function applyOne(run: ApplyRun, r: ResourceEntry, guids: Map<string, number>): Promise<void> {
  if (run.excluded.has(r.id) || r.hash === '') {
    if (r.hash === '') run.warn(`resource "${r.name.slice(0, 80)}" has no valid hash and was skipped`);
    return;
  }
  const owner = run.ownerOf(r.owner);
  if (owner.excluded) return;
  const p = await run.payload(r.file);
  const tags = run.tagIds(r.tags);
  const match = r.guid ? guids.get(r.guid) : undefined;
  if (match !== undefined) {
    await existingByGuid(run, r, p, match, tags);
  } else {
    await run.deps.resources.ctx.hashLock.with(r.hash, async () => {
      const existing = await run.deps.resourceRepo.withHash(r.hash);
      if (existing && run.d.hashPolicy === 'skip') {
        run.result.skipped_by_hash++;
        run.resources.set(r.id, { id: existing.id, touched: false });
        return;
      }
      const share = existing ? { location: existing.location, storage: existing.storage_location, mime: existing.content_type, staged: null, missing: false } : null;
      await createResource(run, r, p, owner.id, tags, share);
    });
  }
  queueLinks(run, r.id, p);
}

export async function applyResources(run: ApplyRun): Promise<void> {
  const list = run.index.resources;
  const guids = new Map<string, number>();
  const wanted = [...new Set(list.map((r) => r.guid).filter((g): g is string => g !== null))];
  for (const row of await run.repo.idsByGuid('resources', wanted)) guids.set(row.guid!, row.id);
  for (const [i, r] of list.entries()) {
    run.checkCancelled();
    await applyOne(run, r, guids);
    run.advance();
    run.job.phase('creating resources', i + 1, list.length);
  }
}

/** Phase "resolving series": series whose slug exists here are reused; others are created on first use. */
export async function resolveExistingSeries(run: ApplyRun): Promise<void> {
  const slugs = run.index.series.map((s) => s.slug);
  const local = new Map((await run.deps.resourceRepo.seriesBySlug(slugs)).map((row) => [row.slug, row.id]));
  for (const s of run.index.series) {
    const id = local.get(s.slug);
    if (id === undefined) continue;
    run.series.set(s.id, id);
    run.result.reused_series++;
  }
}

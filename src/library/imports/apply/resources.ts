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
import type { Transaction } from 'kysely';
import { nowIso, parseJson } from '../../../core/db/values.js';
import { SNIFF_BYTES, contentLocation } from '../../../core/storage/file-store.js';
import { bareMime, extensionFor, sniffMime } from '../../../core/storage/sniff.js';
import { validName } from '../../common/names.js';
import type { Database } from '../../schema/database.js';
import { editMemberMeta, joinSeries } from '../../resources/series-meta.js';
import { trimName } from '../../resources/ingest.js';
import { slices } from '../../archive/batches.js';
import { blobHash } from '../../archive/format.js';
import type { ResourceEntry } from '../archive-index.js';
import { int, isObj, obj, str, strList, strOrNull, timestamp, type Obj } from '../fields.js';
import { RESOURCE_TAGS, checkImportedMeta, mergedMeta, setTags } from './rows.js';
import type { ApplyRun } from './run.js';

type Trx = Transaction<Database>;
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
  const db = run.db;
  const local =
    (await db.selectFrom('resources').select(['location', 'storage_location', 'content_type']).where('hash', '=', hash).orderBy('id').executeTakeFirst()) ??
    (await db.selectFrom('resource_versions').select(['location', 'storage_location', 'content_type']).where('hash', '=', hash).orderBy('id').executeTakeFirst());
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
async function seriesFor(run: ApplyRun, trx: Trx, ref: string | null): Promise<number | null> {
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
  const inserted = await trx
    .insertInto('series')
    .values({ ...run.stamp(p), name: entry.name.trim() || slug, slug, meta: JSON.stringify(obj(p.meta)) })
    .onConflict((oc) => oc.column('slug').doNothing())
    .returning('id')
    .executeTakeFirst();
  const row = inserted ?? (await trx.selectFrom('series').select('id').where('slug', '=', slug).executeTakeFirstOrThrow());
  if (inserted) run.result.created_series++;
  else run.result.reused_series++;
  run.series.set(ref, row.id);
  return row.id;
}

/** Meta columns of a series member whose effective meta should be `meta`. */
async function memberMeta(trx: Trx, seriesId: number, meta: Obj): Promise<{ meta: string; own_meta: string }> {
  const s = await trx.selectFrom('series').select('meta').where('id', '=', seriesId).executeTakeFirstOrThrow();
  const shared = parseJson<Obj>(s.meta, {});
  // An empty series takes its first member's meta (the upload rule); otherwise the member keeps
  // exactly its effective meta, series keys it lacks becoming null overrides.
  return Object.keys(shared).length === 0 ? joinSeries(trx, seriesId, meta) : editMemberMeta(trx, seriesId, meta);
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
  const id = await run.db.transaction().execute(async (trx) => {
    const seriesId = await seriesFor(run, trx, r.seriesRef);
    const metaCols = seriesId !== null ? await memberMeta(trx, seriesId, meta) : { meta: JSON.stringify(meta), own_meta: '{}' };
    const categoryId = run.vocabId('resource_categories', r.categoryRef, r.categoryName) ?? (await ingest.categoryFor(trx, {}, { contentType: mime, fileSize, width, height }));
    await checkImportedMeta(run, trx, RESOURCE_CARRIER, categoryId, parseJson<Obj>(metaCols.meta, {}), label);
    const stamp = run.stamp(p);
    const row = await trx
      .insertInto('resources')
      .values({
        ...stamp,
        guid: await run.guidFor(trx, 'resources', p.guid),
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
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const wanted = versions.length
      ? versions
      : [{ exportId: null, number: 1, hash: r.hash, size: fileSize, mime, width, height, comment: 'Original', createdAt: stamp.created_at }];
    let currentVersion: number | null = null;
    for (const v of wanted) {
      const f = files.get(v.hash)!;
      const inserted = await trx
        .insertInto('resource_versions')
        .values({
          created_at: v.createdAt ?? stamp.created_at,
          updated_at: v.createdAt ?? stamp.created_at,
          created_by_user_id: stamp.created_by_user_id,
          resource_id: row.id,
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
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (v.exportId !== null && v.exportId === strOrNull(p.current_version_ref)) currentVersion = inserted.id;
      else if (currentVersion === null && v === wanted[wanted.length - 1]) currentVersion = inserted.id;
    }
    await trx.updateTable('resources').set({ current_version_id: currentVersion }).where('id', '=', row.id).execute();
    await setTags(trx, RESOURCE_TAGS, row.id, tags);
    // The files reach their place last, when every row is in (the upload rule).
    for (const [hash, f] of files) {
      if (!f.staged) continue;
      const size = versions.find((v) => v.hash === hash)?.size ?? fileSize;
      await ctx.fs.main.place({ tempPath: f.staged, sha1: hash, size, head: Buffer.alloc(0) }, f.location);
    }
    return row.id;
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
  await run.db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('resources').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const replace = run.d.guidPolicy === 'replace';
    const wantedMeta = replace ? meta : mergedMeta(row.meta, meta);
    const metaCols = row.series_id !== null ? await editMemberMeta(trx, row.series_id, wantedMeta) : { meta: JSON.stringify(wantedMeta), own_meta: '{}' };
    const text = (field: 'description' | 'original_name' | 'original_location') => (replace ? str(p[field]) : row[field] || str(p[field]));
    await trx
      .updateTable('resources')
      .set({
        name: replace ? resourceName(run, r.name, row.name) : row.name,
        description: text('description'),
        original_name: text('original_name'),
        original_location: text('original_location'),
        category: replace ? str(p.category) : row.category || str(p.category),
        resource_category_id: replace && categoryId !== null ? categoryId : row.resource_category_id,
        ...metaCols,
        updated_at: nowIso(),
      })
      .where('id', '=', id)
      .execute();
    await setTags(trx, RESOURCE_TAGS, id, tags, replace);
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
      const existing = await run.db.selectFrom('resources').select(['id', 'location', 'storage_location', 'content_type']).where('hash', '=', r.hash).orderBy('id').executeTakeFirst();
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
  for (const s of slices(wanted)) for (const row of await run.db.selectFrom('resources').select(['id', 'guid']).where('guid', 'in', s).execute()) guids.set(row.guid!, row.id);
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
  const local = new Map<string, number>();
  for (const s of slices(slugs)) for (const row of await run.db.selectFrom('series').select(['id', 'slug']).where('slug', 'in', s).execute()) local.set(row.slug, row.id);
  for (const s of run.index.series) {
    const id = local.get(s.slug);
    if (id === undefined) continue;
    run.series.set(s.id, id);
    run.result.reused_series++;
  }
}

// Discovery of what an export contains (companion §7.4), shared by the estimate and the job:
// the groups (roots, their subtree, related "shell" groups up to relatedDepth), the notes and
// resources they own, series, versions, blobs and previews, the schema definitions those use,
// and every reference that points outside the export (dangling). Only ids, names and sizes are
// read here, in slices of 500 ids; entity payloads are loaded later, batch by batch.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { notFound } from '../../core/http/errors.js';
import type { Principal } from '../auth/principal.js';
import type { VersionRow } from '../resources/records.js';
import type { Filesystems } from '../resources/storage.js';
import { groupRows } from '../archive/batches.js';
import { DANGLING_KINDS, PREFIX, exportId, type DanglingKind, type ExportCounts, type SchemaKind } from '../archive/format.js';
import { collectDangling } from './dangling.js';
import type { ExportOptions } from './options.js';
import type { ExportRepository } from './repository.js';
import type { BlobItem, ExportSet, GroupItem, NoteItem, PreviewItem, ResourceItem, SchemaItem, Visibility } from './set.js';

export type { BlobItem, ExportSet, GroupItem, NoteItem, PreviewItem, ResourceItem, SchemaItem, Visibility } from './set.js';

async function visibilityOf(repo: ExportRepository, principal: Principal): Promise<Visibility> {
  if (principal.scopeGroupId === null || principal.superUser) return { group: () => true, owned: () => true };
  const inside = new Set(await repo.scopeTree(principal.scopeGroupId));
  return { group: (id) => inside.has(id), owned: (owner) => owner !== null && inside.has(owner) };
}

/** Roots first (in request order), then descendants level by level. */
async function subtreeInOrder(repo: ExportRepository, roots: number[]): Promise<number[]> {
  const rest = (await repo.subtree(roots)).filter((x) => x.depth > 0 && !roots.includes(x.id)).map((x) => x.id);
  return [...roots, ...rest];
}

/** Every root must exist and be visible to the caller (404 otherwise, naming the first). */
export async function requireRoots(repo: ExportRepository, principal: Principal, roots: number[]): Promise<Visibility> {
  const vis = await visibilityOf(repo, principal);
  const found = await repo.groupNames(roots);
  const have = new Set(found.map((g) => g.id));
  for (const id of roots) if (!have.has(id) || !vis.group(id)) throw notFound(`group not found or not permitted: ${id}`);
  return vis;
}

export async function collectExport(repo: ExportRepository, fs: Filesystems, principal: Principal, options: ExportOptions): Promise<ExportSet> {
  const vis = await requireRoots(repo, principal, options.rootGroupIds);

  const fullIds = options.scope.subtree ? (await subtreeInOrder(repo, options.rootGroupIds)).filter((id) => vis.group(id)) : options.rootGroupIds;
  const known = new Set(fullIds);
  const shellIds: number[] = [];
  let frontier = fullIds;
  for (let depth = 1; depth <= options.relatedDepth && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const link of await repo.relatedGroupsOf(frontier)) {
      const id = link.related_group_id;
      if (known.has(id) || !vis.group(id)) continue;
      known.add(id);
      next.push(id);
    }
    shellIds.push(...next);
    frontier = next;
  }

  const order = [...fullIds, ...shellIds];
  const shells = new Set(shellIds);
  const groupRowsById = new Map((await repo.groupItems(order)).map((g) => [g.id, g]));
  const groups: GroupItem[] = order
    .filter((id) => groupRowsById.has(id))
    .map((id, i) => {
      const g = groupRowsById.get(id)!;
      return { id, exportId: exportId(PREFIX.group, i + 1), name: g.name, guid: g.guid, ownerId: g.owner_id, categoryId: g.category_id, shell: shells.has(id) };
    });
  const ownerOrder = new Map(fullIds.map((id, i) => [id, i]));
  const byOwner = <T extends { ownerId: number | null; id: number }>(a: T, b: T) => ownerOrder.get(a.ownerId!)! - ownerOrder.get(b.ownerId!)! || a.id - b.id;

  const notes: NoteItem[] = options.scope.owned_notes
    ? (await repo.ownedNotes(fullIds))
        .map((n) => ({ id: n.id, exportId: '', name: n.name, guid: n.guid, ownerId: n.owner_id, noteTypeId: n.note_type_id }))
        .sort(byOwner)
        .map((n, i) => ({ ...n, exportId: exportId(PREFIX.note, i + 1) }))
    : [];

  const resourceRows = options.scope.owned_resources ? await repo.ownedResources(fullIds) : [];
  const resources: ResourceItem[] = resourceRows
    .map((r) => ({ id: r.id, exportId: '', name: r.name, guid: r.guid, ownerId: r.owner_id, hash: r.hash, fileSize: Number(r.file_size), seriesId: r.series_id, categoryId: r.resource_category_id }))
    .sort(byOwner)
    .map((r, i) => ({ ...r, exportId: exportId(PREFIX.resource, i + 1) }));
  const resourceIds = resources.map((r) => r.id);

  const seriesIds = options.fidelity.resource_series ? [...new Set(resources.map((r) => r.seriesId).filter((s): s is number => s !== null))] : [];
  const seriesRows = new Map((await repo.seriesItems(seriesIds)).map((s) => [s.id, s]));
  const series: SchemaItem[] = seriesIds.map((id, i) => ({ id, exportId: exportId(PREFIX.series, i + 1), name: seriesRows.get(id)?.name ?? '', guid: null }));

  const versions = new Map<number, VersionRow[]>();
  if (options.fidelity.resource_versions) {
    const rows = await repo.versions(resourceIds);
    for (const [id, list] of groupRows(rows, (v) => v.resource_id)) versions.set(id, list);
  }

  const blobs = new Map<string, BlobItem>();
  if (options.fidelity.resource_blobs) {
    const byId = new Map(resourceRows.map((r) => [r.id, r]));
    for (const r of resources) {
      const row = byId.get(r.id)!;
      if (!blobs.has(r.hash)) blobs.set(r.hash, { hash: r.hash, size: r.fileSize, location: row.location, storage: row.storage_location, missing: false });
      for (const v of versions.get(r.id) ?? []) {
        if (!blobs.has(v.hash)) blobs.set(v.hash, { hash: v.hash, size: Number(v.file_size), location: v.location, storage: v.storage_location, missing: false });
      }
    }
  }

  const previews = new Map<number, PreviewItem[]>();
  if (options.fidelity.resource_previews) {
    for (const r of resources) {
      const list = await cachedPreviews(fs, r);
      if (list.length) previews.set(r.id, list);
    }
  }

  const set: ExportSet = {
    options,
    roots: options.rootGroupIds,
    groups,
    notes,
    resources,
    series,
    versions,
    blobs,
    previews,
    schema: { categories: [], note_types: [], resource_categories: [], tags: [], group_relation_types: [] },
    ids: {
      group: new Map(groups.map((g) => [g.id, g.exportId])),
      note: new Map(notes.map((n) => [n.id, n.exportId])),
      resource: new Map(resources.map((r) => [r.id, r.exportId])),
      series: new Map(series.map((s) => [s.id, s.exportId])),
      categories: new Map(),
      note_types: new Map(),
      resource_categories: new Map(),
      tags: new Map(),
      group_relation_types: new Map(),
    },
    dangling: [],
    relationDangling: new Map(),
    warnings: [],
  };
  await collectSchema(repo, set);
  await collectDangling(repo, set, vis);
  return set;
}

/** Cached thumbnails of the resource's current file, plus its full-size source frame (0×0). */
async function cachedPreviews(fs: Filesystems, r: ResourceItem): Promise<PreviewItem[]> {
  const dir = join(fs.previewRoot, String(r.id));
  const names = (await readdir(dir).catch(() => [] as string[])).sort();
  const out: PreviewItem[] = [];
  for (const name of names) {
    let width = 0;
    let height = 0;
    if (name !== 'source.jpg') {
      const m = /^([0-9a-f]{40})-(\d+)x(\d+)\.jpg$/.exec(name);
      if (!m || m[1] !== r.hash) continue;
      width = Number(m[2]);
      height = Number(m[3]);
    }
    const info = await stat(join(dir, name)).catch(() => null);
    if (!info?.isFile()) continue;
    out.push({ exportId: `${r.exportId}-p${String(out.length + 1).padStart(4, '0')}`, file: join(dir, name), width, height, size: info.size });
  }
  return out;
}

/** The schema definitions the exported entities use (only when their toggle is on). */
async function collectSchema(repo: ExportRepository, set: ExportSet): Promise<void> {
  const o = set.options;
  const groupIds = set.groups.map((g) => g.id);
  const fullIds = set.groups.filter((g) => !g.shell).map((g) => g.id);
  const typeIds: number[] = [];
  if (o.schemaDefs.group_relation_types && o.scope.group_relations) {
    const direct = [...new Set(await repo.relationTypesFrom(fullIds))];
    const backs = await repo.backRelations(direct);
    typeIds.push(...new Set([...direct, ...backs.filter((b): b is number => b !== null)]));
  }
  const types = typeIds.length ? await repo.relationTypeItems(typeIds) : [];
  const add = (kind: SchemaKind, rows: { id: number; name: string; guid: string | null }[]) => {
    const items = rows.map((r, i) => ({ id: r.id, name: r.name, guid: r.guid, exportId: exportId(PREFIX[kind], i + 1) }));
    set.schema[kind] = items;
    set.ids[kind] = new Map(items.map((i) => [i.id, i.exportId]));
  };
  if (o.schemaDefs.categories_and_types) {
    const catIds = [...new Set([...set.groups.map((g) => g.categoryId), ...types.flatMap((t) => [t.from_category_id, t.to_category_id])].filter((c): c is number => c !== null))];
    const ntIds = [...new Set(set.notes.map((n) => n.noteTypeId).filter((c): c is number => c !== null))];
    const rcIds = [...new Set(set.resources.map((r) => r.categoryId))];
    add('categories', await repo.vocabularyItems('categories', catIds));
    add('note_types', await repo.vocabularyItems('note_types', ntIds));
    add('resource_categories', await repo.vocabularyItems('resource_categories', rcIds));
  }
  if (o.schemaDefs.tags) {
    const tagIds = new Set<number>([
      ...(await repo.tagIdsOf('group', groupIds)),
      ...(await repo.tagIdsOf('note', set.notes.map((n) => n.id))),
      ...(await repo.tagIdsOf('resource', set.resources.map((x) => x.id))),
    ]);
    add('tags', await repo.vocabularyItems('tags', [...tagIds]));
  }
  add('group_relation_types', types);
}

export function exportCounts(set: ExportSet): ExportCounts {
  let versions = 0;
  for (const list of set.versions.values()) versions += list.length;
  let previews = 0;
  for (const list of set.previews.values()) previews += list.length;
  return {
    groups: set.groups.filter((g) => !g.shell).length,
    shell_groups: set.groups.filter((g) => g.shell).length,
    notes: set.notes.length,
    resources: set.resources.length,
    series: set.series.length,
    blobs: set.blobs.size,
    previews,
    versions,
  };
}

/** Rough size of the JSON part: what an average entity takes, plus the manifest. */
const JSON_BYTES_PER_ENTITY = 1024;

export function estimate(set: ExportSet) {
  const counts = exportCounts(set);
  let blobBytes = 0;
  for (const b of set.blobs.values()) blobBytes += b.size;
  let previewBytes = 0;
  for (const list of set.previews.values()) for (const p of list) previewBytes += p.size;
  const entities = counts.groups + counts.shell_groups + counts.notes + counts.resources + counts.series;
  const danglingByKind: Partial<Record<DanglingKind, number>> = {};
  for (const kind of DANGLING_KINDS) {
    const n = set.dangling.filter((d) => d.kind === kind).length;
    if (n > 0) danglingByKind[kind] = n;
  }
  const { shell_groups, ...rest } = counts;
  return {
    counts: set.options.relatedDepth > 0 ? { ...rest, shell_groups } : rest,
    uniqueBlobs: set.blobs.size,
    estimatedBytes: blobBytes + previewBytes + (entities + 1) * JSON_BYTES_PER_ENTITY,
    danglingByKind,
  };
}

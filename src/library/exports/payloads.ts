// Entity payloads of the archive (companion §7.4), built for a batch of entities at a time with
// one statement per association, and every cross-reference translated to export ids.
import { bool, parseJson } from '../../core/db/values.js';
import { groupRows } from '../archive/batches.js';
import {
  CARRIER_TEXT_COLUMNS,
  PRODUCER,
  SCHEMA_VERSION,
  blobPath,
  entityPath,
  type BlockPayload,
  type BlockRefs,
  type CarrierPayload,
  type GroupPayload,
  type Manifest,
  type NotePayload,
  type RelationTypePayload,
  type ResourcePayload,
  type SchemaKind,
  type SeriesPayload,
  type TagPayload,
  type TagRef,
  SCHEMA_PATHS,
} from '../archive/format.js';
import { exportCounts } from './collect.js';
import type { ExportRepository } from './repository.js';
import type { ExportSet, GroupItem, NoteItem, ResourceItem } from './set.js';

type Obj = Record<string, unknown>;
const obj = (text: unknown): Obj => {
  const v = parseJson<unknown>(text, {});
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
};

export function manifestOf(set: ExportSet, createdAt: string): Manifest {
  const o = set.options;
  const entry = (kind: 'categories' | 'note_types' | 'resource_categories' | 'tags' | 'group_relation_types') =>
    set.schema[kind].map((s) => ({ export_id: s.exportId, guid: s.guid, name: s.name, source_id: s.id, path: SCHEMA_PATHS[kind] }));
  return {
    schema_version: SCHEMA_VERSION,
    created_at: createdAt,
    created_by: PRODUCER,
    export_options: { scope: o.scope, fidelity: o.fidelity, schema_defs: o.schemaDefs, gzip: o.gzip, related_depth: o.relatedDepth },
    roots: o.rootGroupIds.map((id) => set.ids.group.get(id)!),
    counts: exportCounts(set),
    entries: {
      groups: set.groups.map((g) => ({ export_id: g.exportId, guid: g.guid, name: g.name, source_id: g.id, path: entityPath('group', g.exportId), shell: g.shell })),
      notes: set.notes.map((n) => ({ export_id: n.exportId, guid: n.guid, name: n.name, source_id: n.id, owner: ref(set.ids.group, n.ownerId), path: entityPath('note', n.exportId) })),
      resources: set.resources.map((r) => ({
        export_id: r.exportId,
        guid: r.guid,
        name: r.name,
        source_id: r.id,
        owner: ref(set.ids.group, r.ownerId),
        hash: r.hash,
        path: entityPath('resource', r.exportId),
      })),
      series: set.series.map((s) => ({ export_id: s.exportId, name: s.name, source_id: s.id, path: entityPath('series', s.exportId) })),
    },
    schema_defs: {
      categories: entry('categories'),
      note_types: entry('note_types'),
      resource_categories: entry('resource_categories'),
      tags: entry('tags'),
      group_relation_types: entry('group_relation_types'),
    },
    dangling_references: set.dangling,
    warnings: set.warnings,
  };
}

function ref(map: Map<number, string>, id: number | null | undefined): string | null {
  return id === null || id === undefined ? null : (map.get(id) ?? null);
}

function refs(map: Map<number, string>, ids: number[]): string[] {
  return ids.map((id) => map.get(id)).filter((x): x is string => x !== undefined);
}

/** Names of carriers and tags, loaded once per export (vocabularies are small). */
export class Names {
  private readonly cache = new Map<string, Map<number, string>>();
  constructor(private readonly repo: ExportRepository) {}

  async of(table: 'categories' | 'note_types' | 'resource_categories' | 'queries', ids: (number | null)[]): Promise<Map<number, string>> {
    let known = this.cache.get(table);
    if (!known) this.cache.set(table, (known = new Map()));
    const missing = [...new Set(ids.filter((i): i is number => i !== null && !known.has(i)))];
    for (const r of await this.repo.names(table, missing)) known.set(r.id, r.name);
    return known;
  }
}

async function tagRefs(repo: ExportRepository, set: ExportSet, entity: 'group' | 'note' | 'resource', ids: number[]) {
  const out = new Map<number, TagRef[]>();
  for (const [owner, list] of groupRows(await repo.tagsOf(entity, ids), (r) => r.owner)) out.set(owner, list.map((t) => ({ ref: set.ids.tags.get(t.id) ?? null, name: t.name })));
  return out;
}

export async function groupPayloads(repo: ExportRepository, set: ExportSet, names: Names, batch: GroupItem[]): Promise<GroupPayload[]> {
  const ids = batch.map((g) => g.id);
  const full = batch.filter((g) => !g.shell).map((g) => g.id);
  const m2m = set.options.scope.related_m2m && full.length > 0;
  const [rows, tags, relGroups, relResources, relNotes, relations] = await Promise.all([
    repo.groups(ids),
    tagRefs(repo, set, 'group', ids),
    m2m ? repo.relatedGroupsOf(full) : [],
    m2m ? repo.groupResourcesOf(full) : [],
    m2m ? repo.groupNotesOf(full) : [],
    set.options.scope.group_relations && full.length > 0 ? repo.relationsFrom(full) : [],
  ]);
  const cats = await names.of('categories', [...rows.map((r) => r.category_id), ...relations.flatMap((r) => [r.from_category_id, r.to_category_id])]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const rg = groupRows(relGroups, (l) => l.group_id);
  const rr = groupRows(relResources, (l) => l.group_id);
  const rn = groupRows(relNotes, (l) => l.group_id);
  const rel = groupRows(relations, (l) => l.from_group_id);
  return batch.map((g) => {
    const row = byId.get(g.id)!;
    return {
      export_id: g.exportId,
      source_id: g.id,
      guid: row.guid,
      shell: g.shell,
      name: row.name,
      description: row.description,
      url: row.url,
      owner_ref: ref(set.ids.group, row.owner_id),
      category_ref: ref(set.ids.categories, row.category_id),
      category_name: row.category_id === null ? null : (cats.get(row.category_id) ?? null),
      tags: tags.get(g.id) ?? [],
      related_groups: refs(set.ids.group, (rg.get(g.id) ?? []).map((l) => l.related_group_id)),
      related_resources: refs(set.ids.resource, (rr.get(g.id) ?? []).map((l) => l.resource_id)),
      related_notes: refs(set.ids.note, (rn.get(g.id) ?? []).map((l) => l.note_id)),
      relationships: (rel.get(g.id) ?? []).flatMap((r) => {
        const to = set.ids.group.get(r.to_group_id);
        const dangling = set.relationDangling.get(r.id);
        if (!to && !dangling) return [];
        return [
          {
            type_ref: ref(set.ids.group_relation_types, r.relation_type_id),
            type_name: r.type_name,
            from_category_name: r.from_category_id === null ? null : (cats.get(r.from_category_id) ?? null),
            to_category_name: r.to_category_id === null ? null : (cats.get(r.to_category_id) ?? null),
            ...(to ? { to_ref: to } : { dangling_ref: dangling }),
            name: r.name,
            description: r.description,
          },
        ];
      }),
      meta: obj(row.meta),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

function idList(v: unknown): number[] {
  return Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : [];
}

/** Export ids for the entity ids a block's content names. */
function blockRefs(set: ExportSet, type: string, content: Obj, queries: Map<number, string>): BlockRefs | undefined {
  if (type === 'gallery') return { resourceIds: idList(content.resourceIds).map((id) => set.ids.resource.get(id) ?? null) };
  if (type === 'references') return { groupIds: idList(content.groupIds).map((id) => set.ids.group.get(id) ?? null) };
  if (type === 'calendar' && Array.isArray(content.calendars)) {
    const calendars: Record<string, string | null> = {};
    for (const c of content.calendars as Obj[]) {
      const source = (c?.source ?? {}) as Obj;
      if (source.type === 'resource' && typeof source.resourceId === 'number') calendars[String(c.id)] = set.ids.resource.get(source.resourceId) ?? null;
    }
    return { calendars };
  }
  if (type === 'table' && typeof content.queryId === 'number') return { query_name: queries.get(content.queryId) ?? null };
  return undefined;
}

export async function notePayloads(repo: ExportRepository, set: ExportSet, names: Names, batch: NoteItem[]): Promise<NotePayload[]> {
  const ids = batch.map((n) => n.id);
  const m2m = set.options.scope.related_m2m;
  const [rows, tags, resources, groups, blocks] = await Promise.all([
    repo.notes(ids),
    tagRefs(repo, set, 'note', ids),
    m2m ? repo.noteResourcesOf(ids) : [],
    m2m ? repo.noteGroupsOf(ids) : [],
    repo.blocks(ids),
  ]);
  const types = await names.of('note_types', rows.map((r) => r.note_type_id));
  const queryIds = blocks.filter((b) => b.type === 'table').map((b) => obj(b.content).queryId).filter((q): q is number => typeof q === 'number');
  const queries = await names.of('queries', queryIds);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const res = groupRows(resources, (l) => l.note_id);
  const grp = groupRows(groups, (l) => l.note_id);
  const blk = groupRows(blocks, (b) => b.note_id);
  return batch.map((n) => {
    const row = byId.get(n.id)!;
    return {
      export_id: n.exportId,
      source_id: n.id,
      guid: row.guid,
      name: row.name,
      description: row.description,
      owner_ref: ref(set.ids.group, row.owner_id),
      note_type_ref: ref(set.ids.note_types, row.note_type_id),
      note_type_name: row.note_type_id === null ? null : (types.get(row.note_type_id) ?? null),
      tags: tags.get(n.id) ?? [],
      resources: refs(set.ids.resource, (res.get(n.id) ?? []).map((l) => l.resource_id)),
      groups: refs(set.ids.group, (grp.get(n.id) ?? []).map((l) => l.group_id)),
      start_date: row.start_date,
      end_date: row.end_date,
      meta: obj(row.meta),
      blocks: (blk.get(n.id) ?? []).map((b): BlockPayload => {
        const content = obj(b.content);
        const r = blockRefs(set, b.type, content, queries);
        return { type: b.type, position: b.position, content, state: obj(b.state), ...(r ? { refs: r } : {}) };
      }),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

export async function resourcePayloads(repo: ExportRepository, set: ExportSet, names: Names, batch: ResourceItem[]): Promise<ResourcePayload[]> {
  const ids = batch.map((r) => r.id);
  const m2m = set.options.scope.related_m2m;
  const [rows, tags, groups, notes] = await Promise.all([
    repo.resources(ids),
    tagRefs(repo, set, 'resource', ids),
    m2m ? repo.resourceGroupsOf(ids) : [],
    m2m ? repo.resourceNotesOf(ids) : [],
  ]);
  const cats = await names.of('resource_categories', rows.map((r) => r.resource_category_id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const grp = groupRows(groups, (l) => l.resource_id);
  const nts = groupRows(notes, (l) => l.resource_id);
  const blobsOn = set.options.fidelity.resource_blobs;
  const blobRef = (hash: string) => (blobsOn && set.blobs.get(hash) && !set.blobs.get(hash)!.missing ? blobPath(hash) : null);
  return batch.map((r) => {
    const row = byId.get(r.id)!;
    const versions = (set.versions.get(r.id) ?? []).map((v, i) => ({
      id: v.id,
      payload: {
        version_export_id: `${r.exportId}-v${String(i + 1).padStart(4, '0')}`,
        version_number: v.version_number,
        hash: v.hash,
        hash_type: v.hash_type,
        file_size: Number(v.file_size),
        content_type: v.content_type,
        width: v.width,
        height: v.height,
        comment: v.comment,
        blob_ref: blobRef(v.hash),
        blob_missing: blobRef(v.hash) === null,
        created_at: v.created_at,
      },
    }));
    return {
      export_id: r.exportId,
      source_id: r.id,
      guid: row.guid,
      name: row.name,
      original_name: row.original_name,
      original_location: row.original_location,
      hash: row.hash,
      hash_type: row.hash_type,
      file_size: Number(row.file_size),
      content_type: row.content_type,
      content_category: row.content_category,
      width: row.width,
      height: row.height,
      description: row.description,
      category: row.category,
      meta: obj(row.meta),
      own_meta: obj(row.own_meta),
      owner_ref: ref(set.ids.group, row.owner_id),
      resource_category_ref: ref(set.ids.resource_categories, row.resource_category_id),
      resource_category_name: cats.get(row.resource_category_id) ?? null,
      tags: tags.get(r.id) ?? [],
      groups: refs(set.ids.group, (grp.get(r.id) ?? []).map((l) => l.group_id)),
      notes: refs(set.ids.note, (nts.get(r.id) ?? []).map((l) => l.note_id)),
      storage_location: row.storage_location,
      blob_ref: blobRef(row.hash),
      blob_missing: blobRef(row.hash) === null,
      series_ref: ref(set.ids.series, row.series_id),
      current_version_ref: versions.find((v) => v.id === row.current_version_id)?.payload.version_export_id ?? null,
      versions: versions.map((v) => v.payload),
      previews: (set.previews.get(r.id) ?? []).map((p) => ({ preview_export_id: p.exportId, width: p.width, height: p.height, content_type: 'image/jpeg' })),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

export async function seriesPayloads(repo: ExportRepository, set: ExportSet): Promise<SeriesPayload[]> {
  const rows = new Map((await repo.series(set.series.map((s) => s.id))).map((r) => [r.id, r]));
  return set.series.map((s) => {
    const row = rows.get(s.id)!;
    return { export_id: s.exportId, source_id: s.id, name: row.name, slug: row.slug, meta: obj(row.meta) };
  });
}

/** One schema list (the whole file is one JSON array). */
export async function schemaPayloads(repo: ExportRepository, set: ExportSet, kind: SchemaKind): Promise<unknown[]> {
  const items = set.schema[kind];
  const ids = items.map((i) => i.id);
  if (kind === 'tags') {
    const rows = new Map((await repo.tags(ids)).map((r) => [r.id, r]));
    return items.map((i): TagPayload => {
      const r = rows.get(i.id)!;
      return { export_id: i.exportId, source_id: i.id, guid: r.guid, name: r.name, description: r.description, meta: obj(r.meta) };
    });
  }
  if (kind === 'group_relation_types') {
    const rows = new Map((await repo.relationTypes(ids)).map((r) => [r.id, r]));
    const catIds = [...new Set([...rows.values()].flatMap((r) => [r.from_category_id, r.to_category_id]).filter((c): c is number => c !== null))];
    const catNames = new Map((await repo.names('categories', catIds)).map((c) => [c.id, c.name]));
    return items.map((i): RelationTypePayload => {
      const r = rows.get(i.id)!;
      return {
        export_id: i.exportId,
        source_id: i.id,
        guid: r.guid,
        name: r.name,
        description: r.description,
        from_category_ref: ref(set.ids.categories, r.from_category_id),
        to_category_ref: ref(set.ids.categories, r.to_category_id),
        from_category_name: r.from_category_id === null ? null : (catNames.get(r.from_category_id) ?? null),
        to_category_name: r.to_category_id === null ? null : (catNames.get(r.to_category_id) ?? null),
        back_relation_ref: ref(set.ids.group_relation_types, r.back_relation_id),
      };
    });
  }
  const rows = new Map((await repo.carriers(kind, ids)).map((r) => [r.id, r as unknown as Obj]));
  return items.map((i): CarrierPayload => {
    const r = rows.get(i.id)!;
    const out: CarrierPayload = { export_id: i.exportId, source_id: i.id, guid: (r.guid as string | null) ?? null, name: String(r.name), description: String(r.description ?? '') };
    for (const col of CARRIER_TEXT_COLUMNS[kind]) out[col] = String(r[col] ?? '');
    out.section_config = obj(r.section_config);
    if (kind === 'note_types') out.apply_templates_to_shares = bool(r.apply_templates_to_shares);
    return out;
  });
}


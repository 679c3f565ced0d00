// The import plan (companion §7.5 step 2): what the archive holds (counts and the group tree),
// how each piece of vocabulary maps onto this library (GUID match, else a unique name match
// → map; no match → create; several → ambiguous), which series exist by slug, dangling
// references, GUID and hash collisions, and hashes whose bytes are nowhere. Local lookups are
// batched, one statement per slice of names, GUIDs or hashes.
import { SCHEMA_KINDS, type SchemaKind, type TagRef } from '../archive/format.js';
import type { ArchiveIndex, GroupEntry, SchemaEntry } from './archive-index.js';
import type { GuidTable, ImportPlanRepository, LocalRelationType, LocalRow } from './plan.repository.js';

export const DECISION_TYPE: Record<SchemaKind, string> = {
  categories: 'category',
  note_types: 'note_type',
  resource_categories: 'resource_category',
  tags: 'tag',
  group_relation_types: 'group_relation_type',
};

export interface Alternative {
  id: number;
  name: string;
}

export interface MappingEntry {
  decision_key: string;
  source_key: string;
  source_export_id: string | null;
  has_payload: boolean;
  suggestion: 'map' | 'create';
  destination_id: number | null;
  destination_name: string | null;
  ambiguous: boolean;
  alternatives: Alternative[];
  from_category_name?: string | null;
  to_category_name?: string | null;
  guid_conflict: boolean;
  guid_match_id: number | null;
  guid_match_name: string | null;
  /** The plain name (source_key is name|from|to for relation types). */
  name: string;
}

export interface PlanItem {
  export_id: string;
  kind: 'group';
  name: string;
  shell: boolean;
  owner_ref: string | null;
  resource_count: number;
  note_count: number;
  descendant_resource_count: number;
  descendant_note_count: number;
  children: PlanItem[];
  guid_match: boolean;
  guid_match_id: number | null;
  guid_match_name: string | null;
}

export interface SeriesInfo {
  export_id: string;
  name: string;
  slug: string;
  action: 'reuse_existing' | 'create';
  dest_id: number | null;
  dest_name: string | null;
}

export interface PlanDangling {
  id: string;
  kind: string;
  from_export_id: string;
  from_name: string;
  stub_source_id: number;
  stub_name: string;
  relation_type_name: string | null;
}

export interface Plan {
  job_id: string;
  schema_version: number;
  source_instance_id: string | null;
  archive: { created_at: string; created_by: string; file_name: string };
  counts: { groups: number; notes: number; resources: number; series: number; blobs: number; previews: number; versions: number; shell_groups: number };
  items: PlanItem[];
  mappings: Record<SchemaKind, MappingEntry[]>;
  series_info: SeriesInfo[];
  dangling_refs: PlanDangling[];
  conflicts: { resource_hash_matches: number; guid_matches: number };
  manifest_only_missing_hashes: number;
  warnings: string[];
}

const lower = (s: string) => s.toLowerCase();

/** Finds the decision key an entity's reference resolves to (by export id, else by name). */
export class KeyResolver {
  private readonly byRef = new Map<string, string>();
  private readonly byName = new Map<string, string>();

  constructor(
    private readonly kind: SchemaKind,
    defs: SchemaEntry[],
  ) {
    for (const d of defs) {
      const key = this.kind === 'group_relation_types' ? relationKey(d.name, d.fromCategory ?? null, d.toCategory ?? null) : `${DECISION_TYPE[kind]}:${d.exportId}`;
      this.byRef.set(d.exportId, key);
      const nameKey = this.kind === 'group_relation_types' ? key : lower(d.name);
      if (!this.byName.has(nameKey)) this.byName.set(nameKey, key);
    }
  }

  key(ref: string | null, name: string | null): string | null {
    if (ref !== null && this.byRef.has(ref)) return this.byRef.get(ref)!;
    if (name === null || name.trim() === '') return null;
    return this.byName.get(lower(name.trim())) ?? `${DECISION_TYPE[this.kind]}:${name.trim()}`;
  }

  relation(name: string, from: string | null, to: string | null): string {
    return relationKey(name, from, to);
  }
}

export function relationKey(name: string, from: string | null, to: string | null): string {
  return `group_relation_type:${name.trim()}|${from ?? ''}|${to ?? ''}`;
}

export function resolvers(index: ArchiveIndex): Record<SchemaKind, KeyResolver> {
  const out = {} as Record<SchemaKind, KeyResolver>;
  for (const kind of SCHEMA_KINDS) out[kind] = new KeyResolver(kind, index.schemas[kind]?.entries ?? []);
  return out;
}

interface Source {
  key: string;
  name: string;
  exportId: string | null;
  guid: string | null;
  from?: string | null;
  to?: string | null;
}

/** Every vocabulary item the archive names, with or without a definition, once per key. */
function sources(index: ArchiveIndex, res: Record<SchemaKind, KeyResolver>): Record<SchemaKind, Source[]> {
  const out = {} as Record<SchemaKind, Map<string, Source>>;
  for (const kind of SCHEMA_KINDS) {
    out[kind] = new Map();
    for (const d of index.schemas[kind]?.entries ?? []) {
      const key = res[kind].key(d.exportId, d.name)!;
      if (!out[kind].has(key)) out[kind].set(key, { key, name: d.name, exportId: d.exportId, guid: d.guid, from: d.fromCategory, to: d.toCategory });
    }
  }
  const named = (kind: SchemaKind, ref: string | null, name: string | null) => {
    const key = res[kind].key(ref, name);
    if (key && !out[kind].has(key)) out[kind].set(key, { key, name: name!.trim(), exportId: null, guid: null });
  };
  const tags = (list: TagRef[]) => list.forEach((t) => named('tags', t.ref, t.name));
  for (const g of index.groups) {
    named('categories', g.categoryRef, g.categoryName);
    tags(g.tags);
    for (const r of g.relationships) {
      if (r.typeName.trim() === '') continue;
      const key = relationKey(r.typeName, r.fromCategory, r.toCategory);
      if (!out.group_relation_types.has(key)) out.group_relation_types.set(key, { key, name: r.typeName.trim(), exportId: null, guid: null, from: r.fromCategory, to: r.toCategory });
    }
  }
  for (const n of index.notes) {
    named('note_types', n.typeRef, n.typeName);
    tags(n.tags);
  }
  for (const r of index.resources) {
    named('resource_categories', r.categoryRef, r.categoryName);
    tags(r.tags);
  }
  // Relation types need their categories, so those join the category mappings by name.
  for (const t of out.group_relation_types.values()) {
    named('categories', null, t.from ?? null);
    named('categories', null, t.to ?? null);
  }
  const lists = {} as Record<SchemaKind, Source[]>;
  for (const kind of SCHEMA_KINDS) lists[kind] = [...out[kind].values()];
  return lists;
}

async function localByName(repo: ImportPlanRepository, table: 'categories' | 'note_types' | 'resource_categories' | 'tags', names: string[]): Promise<LocalRow[]> {
  return repo.byFoldedName(table, [...new Set(names.map(lower))]);
}

async function localByGuid(repo: ImportPlanRepository, table: GuidTable, guids: (string | null)[]): Promise<Map<string, LocalRow>> {
  const wanted = [...new Set(guids.filter((g): g is string => g !== null))];
  return new Map((await repo.byGuid(table, wanted)).map((r) => [r.guid!, r]));
}

function suggest(source: Source, candidates: LocalRow[], guidMatch: LocalRow | undefined): Omit<MappingEntry, 'decision_key' | 'source_key' | 'source_export_id' | 'has_payload' | 'name'> {
  const base = { guid_conflict: false, guid_match_id: guidMatch?.id ?? null, guid_match_name: guidMatch?.name ?? null, alternatives: [] as Alternative[], ambiguous: false };
  if (guidMatch) return { ...base, guid_conflict: guidMatch.name !== source.name, suggestion: 'map', destination_id: guidMatch.id, destination_name: guidMatch.name };
  const exact = candidates.filter((c) => c.name === source.name);
  const pick = exact.length === 1 ? exact : candidates;
  if (pick.length === 1) return { ...base, suggestion: 'map', destination_id: pick[0].id, destination_name: pick[0].name };
  if (pick.length === 0) return { ...base, suggestion: 'create', destination_id: null, destination_name: null };
  return { ...base, suggestion: 'map', destination_id: null, destination_name: null, ambiguous: true, alternatives: pick.map((c) => ({ id: c.id, name: c.name })) };
}

async function mappings(repo: ImportPlanRepository, index: ArchiveIndex, res: Record<SchemaKind, KeyResolver>): Promise<Record<SchemaKind, MappingEntry[]>> {
  const all = sources(index, res);
  const out = {} as Record<SchemaKind, MappingEntry[]>;
  const entry = (kind: SchemaKind, s: Source, s2: ReturnType<typeof suggest>): MappingEntry => ({
    decision_key: s.key,
    source_key: kind === 'group_relation_types' ? `${s.name}|${s.from ?? ''}|${s.to ?? ''}` : s.name,
    source_export_id: s.exportId,
    has_payload: s.exportId !== null,
    name: s.name,
    ...s2,
  });
  for (const kind of ['categories', 'note_types', 'resource_categories', 'tags'] as const) {
    const list = all[kind];
    const byName = new Map<string, LocalRow[]>();
    for (const r of await localByName(repo, kind, list.map((s) => s.name))) byName.set(lower(r.name), [...(byName.get(lower(r.name)) ?? []), r]);
    const guids = await localByGuid(repo, kind, list.map((s) => s.guid));
    out[kind] = list.map((s) => entry(kind, s, suggest(s, byName.get(lower(s.name)) ?? [], s.guid ? guids.get(s.guid) : undefined)));
  }
  // Relation types match by name and by the categories they join (as mapped above, or by name).
  const catDest = new Map(out.categories.map((m) => [lower(m.name), m.destination_id]));
  const types = all.group_relation_types;
  const names = [...new Set(types.map((t) => lower(t.name)))];
  const local: LocalRelationType[] = await repo.relationTypesByFoldedName(names);
  const typeGuids = await localByGuid(repo, 'group_relation_types', types.map((t) => t.guid));
  const side = (localId: number | null, localName: string | null, source: string | null | undefined) =>
    source === null || source === undefined ? localId === null : (localId !== null && catDest.get(lower(source)) === localId) || (localName !== null && lower(localName) === lower(source));
  out.group_relation_types = types.map((t) => {
    const candidates = local.filter((l) => lower(l.name) === lower(t.name) && side(l.from_category_id, l.from_name, t.from) && side(l.to_category_id, l.to_name, t.to));
    return { ...entry('group_relation_types', t, suggest(t, candidates, t.guid ? typeGuids.get(t.guid) : undefined)), from_category_name: t.from ?? null, to_category_name: t.to ?? null };
  });
  return out;
}

function itemTree(index: ArchiveIndex, guidMatches: Map<string, LocalRow>): PlanItem[] {
  const ids = new Set(index.groups.map((g) => g.id));
  const ownRes = new Map<string, number>();
  const ownNotes = new Map<string, number>();
  for (const r of index.resources) if (r.owner) ownRes.set(r.owner, (ownRes.get(r.owner) ?? 0) + 1);
  for (const n of index.notes) if (n.owner) ownNotes.set(n.owner, (ownNotes.get(n.owner) ?? 0) + 1);
  const children = new Map<string, GroupEntry[]>();
  for (const g of index.groups) if (g.owner !== null && ids.has(g.owner) && g.owner !== g.id) children.set(g.owner, [...(children.get(g.owner) ?? []), g]);
  const visited = new Set<string>();
  const build = (g: GroupEntry): PlanItem => {
    visited.add(g.id);
    const kids = (children.get(g.id) ?? []).filter((c) => !visited.has(c.id)).map(build);
    const match = g.guid ? guidMatches.get(g.guid) : undefined;
    return {
      export_id: g.id,
      kind: 'group',
      name: g.name,
      shell: g.shell,
      owner_ref: g.owner,
      resource_count: ownRes.get(g.id) ?? 0,
      note_count: ownNotes.get(g.id) ?? 0,
      descendant_resource_count: (ownRes.get(g.id) ?? 0) + kids.reduce((n, k) => n + k.descendant_resource_count, 0),
      descendant_note_count: (ownNotes.get(g.id) ?? 0) + kids.reduce((n, k) => n + k.descendant_note_count, 0),
      children: kids,
      guid_match: match !== undefined,
      guid_match_id: match?.id ?? null,
      guid_match_name: match?.name ?? null,
    };
  };
  const roots = index.groups.filter((g) => g.owner === null || !ids.has(g.owner) || g.owner === g.id).map(build);
  // Groups caught in an ownership loop have no root; they are listed at the top.
  for (const g of index.groups) if (!visited.has(g.id)) roots.push(build(g));
  return roots;
}

/** Hashes this library already has (as a current file or as a version). */
export async function knownHashes(repo: ImportPlanRepository, hashes: string[]): Promise<Set<string>> {
  const wanted = [...new Set(hashes)];
  const out = new Set(await repo.currentHashes(wanted));
  for (const h of await repo.versionHashes(wanted.filter((h) => !out.has(h)))) out.add(h);
  return out;
}

export async function buildPlan(repo: ImportPlanRepository, jobId: string, fileName: string, index: ArchiveIndex): Promise<Plan> {
  const res = resolvers(index);
  const [groupGuids, noteGuids, resourceGuids] = await Promise.all([
    localByGuid(repo, 'groups', index.groups.map((g) => g.guid)),
    localByGuid(repo, 'notes', index.notes.map((n) => n.guid)),
    localByGuid(repo, 'resources', index.resources.map((r) => r.guid)),
  ]);
  const resourcesWithoutGuidMatch = index.resources.filter((r) => !(r.guid && resourceGuids.has(r.guid)));
  const local = await knownHashes(repo, index.resources.flatMap((r) => r.hashes));
  const currentHashes = new Set(await repo.currentHashes(resourcesWithoutGuidMatch.map((r) => r.hash)));
  const missing = new Set(index.resources.flatMap((r) => r.hashes).filter((h) => !(h in index.blobs) && !local.has(h)));

  const slugs = index.series.map((s) => s.slug);
  const localSeries = new Map((await repo.seriesBySlug(slugs)).map((s) => [s.slug, s]));
  const names = new Map<string, string>([...index.groups, ...index.notes, ...index.resources, ...index.series].map((e) => [e.id, e.name]));

  return {
    job_id: jobId,
    schema_version: index.manifest.schemaVersion,
    source_instance_id: index.manifest.sourceInstanceId,
    archive: { created_at: index.manifest.createdAt, created_by: index.manifest.createdBy, file_name: fileName },
    counts: {
      groups: index.groups.filter((g) => !g.shell).length,
      shell_groups: index.groups.filter((g) => g.shell).length,
      notes: index.notes.length,
      resources: index.resources.length,
      series: index.series.length,
      blobs: Object.keys(index.blobs).length,
      previews: index.previews.length,
      versions: index.resources.reduce((n, r) => n + r.versions, 0),
    },
    items: itemTree(index, groupGuids),
    mappings: await mappings(repo, index, res),
    series_info: index.series.map((s) => {
      const hit = localSeries.get(s.slug);
      return { export_id: s.id, name: s.name, slug: s.slug, action: hit ? 'reuse_existing' : 'create', dest_id: hit?.id ?? null, dest_name: hit?.name ?? null };
    }),
    dangling_refs: index.manifest.dangling.map((d) => ({
      id: d.id,
      kind: d.kind,
      from_export_id: d.from,
      from_name: names.get(d.from) ?? '',
      stub_source_id: d.to_stub.source_id,
      stub_name: d.to_stub.name,
      relation_type_name: d.relation_type_name ?? null,
    })),
    conflicts: {
      resource_hash_matches: resourcesWithoutGuidMatch.filter((r) => currentHashes.has(r.hash)).length,
      guid_matches: groupGuids.size + noteGuids.size + resourceGuids.size,
    },
    manifest_only_missing_hashes: missing.size,
    warnings: [...index.manifest.warnings, ...index.warnings],
  };
}

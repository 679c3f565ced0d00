// Dangling references of an export (companion §7.4): every link, relation or series sibling
// that points from an exported entity to one outside the export, with a stub naming the target
// (blank when the caller may not see it).
import type { LibraryDb } from '../schema/database.js';
import { batched } from '../archive/batches.js';
import { PREFIX, exportId, type DanglingKind, type DanglingRef } from '../archive/format.js';
import type { ExportSet, Visibility } from './collect.js';

/** References from exported entities to entities outside the export. */
export async function collectDangling(db: LibraryDb, set: ExportSet, vis: Visibility): Promise<void> {
  const o = set.options;
  const full = set.groups.filter((g) => !g.shell).map((g) => g.id);
  const noteIds = set.notes.map((n) => n.id);
  const resIds = set.resources.map((r) => r.id);
  const pending: { kind: DanglingKind; from: string; target: number; table: 'groups' | 'notes' | 'resources'; type?: string; relationId?: number }[] = [];
  const outside = (kind: 'group' | 'note' | 'resource', id: number) => !set.ids[kind].has(id);

  if (o.scope.related_m2m) {
    for (const l of await batched(full, (s) => db.selectFrom('group_related_groups').selectAll().where('group_id', 'in', s).orderBy('group_id').orderBy('related_group_id').execute())) {
      if (outside('group', l.related_group_id)) pending.push({ kind: 'related_group', from: set.ids.group.get(l.group_id)!, target: l.related_group_id, table: 'groups' });
    }
    for (const l of await batched(full, (s) => db.selectFrom('groups_related_resources').selectAll().where('group_id', 'in', s).orderBy('group_id').orderBy('resource_id').execute())) {
      if (outside('resource', l.resource_id)) pending.push({ kind: 'related_resource', from: set.ids.group.get(l.group_id)!, target: l.resource_id, table: 'resources' });
    }
    for (const l of await batched(full, (s) => db.selectFrom('groups_related_notes').selectAll().where('group_id', 'in', s).orderBy('group_id').orderBy('note_id').execute())) {
      if (outside('note', l.note_id)) pending.push({ kind: 'related_note', from: set.ids.group.get(l.group_id)!, target: l.note_id, table: 'notes' });
    }
    for (const l of await batched(noteIds, (s) => db.selectFrom('resource_notes').selectAll().where('note_id', 'in', s).orderBy('note_id').orderBy('resource_id').execute())) {
      if (outside('resource', l.resource_id)) pending.push({ kind: 'related_resource', from: set.ids.note.get(l.note_id)!, target: l.resource_id, table: 'resources' });
    }
    for (const l of await batched(noteIds, (s) => db.selectFrom('groups_related_notes').selectAll().where('note_id', 'in', s).orderBy('note_id').orderBy('group_id').execute())) {
      if (outside('group', l.group_id)) pending.push({ kind: 'related_group', from: set.ids.note.get(l.note_id)!, target: l.group_id, table: 'groups' });
    }
    for (const l of await batched(resIds, (s) => db.selectFrom('groups_related_resources').selectAll().where('resource_id', 'in', s).orderBy('resource_id').orderBy('group_id').execute())) {
      if (outside('group', l.group_id)) pending.push({ kind: 'related_group', from: set.ids.resource.get(l.resource_id)!, target: l.group_id, table: 'groups' });
    }
    for (const l of await batched(resIds, (s) => db.selectFrom('resource_notes').selectAll().where('resource_id', 'in', s).orderBy('resource_id').orderBy('note_id').execute())) {
      if (outside('note', l.note_id)) pending.push({ kind: 'related_note', from: set.ids.resource.get(l.resource_id)!, target: l.note_id, table: 'notes' });
    }
  }
  if (o.scope.group_relations) {
    const rels = await batched(full, (s) =>
      db
        .selectFrom('group_relations as r')
        .innerJoin('group_relation_types as t', 't.id', 'r.relation_type_id')
        .select(['r.id', 'r.from_group_id', 'r.to_group_id', 't.name'])
        .where('r.from_group_id', 'in', s)
        .orderBy('r.from_group_id')
        .orderBy('r.id')
        .execute(),
    );
    for (const r of rels) {
      if (outside('group', r.to_group_id)) pending.push({ kind: 'group_relation', from: set.ids.group.get(r.from_group_id)!, target: r.to_group_id, table: 'groups', type: r.name, relationId: r.id });
    }
  }
  if (set.series.length > 0) {
    const members = await batched(
      set.series.map((s) => s.id),
      (s) => db.selectFrom('resources').select(['id', 'series_id']).where('series_id', 'in', s).orderBy('id').execute(),
    );
    for (const m of members) {
      if (outside('resource', m.id)) pending.push({ kind: 'resource_series_sibling', from: set.ids.series.get(m.series_id!)!, target: m.id, table: 'resources' });
    }
  }

  const names = new Map<string, { name: string; visible: boolean }>();
  for (const table of ['groups', 'notes', 'resources'] as const) {
    const ids = [...new Set(pending.filter((p) => p.table === table).map((p) => p.target))];
    const rows =
      table === 'groups'
        ? (await batched(ids, (s) => db.selectFrom('groups').select(['id', 'name']).where('id', 'in', s).execute())).map((r) => ({ ...r, visible: vis.group(r.id) }))
        : (await batched(ids, (s) => db.selectFrom(table).select(['id', 'name', 'owner_id']).where('id', 'in', s).execute())).map((r) => ({ id: r.id, name: r.name, visible: vis.owned(r.owner_id) }));
    for (const r of rows) names.set(`${table}:${r.id}`, { name: r.name, visible: r.visible });
  }
  pending.forEach((p, i) => {
    const target = names.get(`${p.table}:${p.target}`);
    const id = exportId(PREFIX.dangling, i + 1);
    const ref: DanglingRef = {
      id,
      kind: p.kind,
      from: p.from,
      to_stub: { source_id: p.target, name: target?.visible ? target.name : '', reason: target?.visible === false ? 'not permitted' : 'not in export' },
    };
    if (p.type !== undefined) ref.relation_type_name = p.type;
    set.dangling.push(ref);
    if (p.relationId !== undefined) set.relationDangling.set(p.relationId, id);
  });
}

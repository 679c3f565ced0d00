// Dangling references of an export (companion §7.4): every link, relation or series sibling
// that points from an exported entity to one outside the export, with a stub naming the target
// (blank when the caller may not see it).
import { PREFIX, exportId, type DanglingKind, type DanglingRef } from '../archive/format.js';
import type { ExportRepository } from './repository.js';
import type { ExportSet, Visibility } from './set.js';

/** References from exported entities to entities outside the export. */
export async function collectDangling(repo: ExportRepository, set: ExportSet, vis: Visibility): Promise<void> {
  const o = set.options;
  const full = set.groups.filter((g) => !g.shell).map((g) => g.id);
  const noteIds = set.notes.map((n) => n.id);
  const resIds = set.resources.map((r) => r.id);
  const pending: { kind: DanglingKind; from: string; target: number; table: 'groups' | 'notes' | 'resources'; type?: string; relationId?: number }[] = [];
  const outside = (kind: 'group' | 'note' | 'resource', id: number) => !set.ids[kind].has(id);

  if (o.scope.related_m2m) {
    for (const l of await repo.relatedGroupsOf(full)) {
      if (outside('group', l.related_group_id)) pending.push({ kind: 'related_group', from: set.ids.group.get(l.group_id)!, target: l.related_group_id, table: 'groups' });
    }
    for (const l of await repo.groupResourcesOf(full)) {
      if (outside('resource', l.resource_id)) pending.push({ kind: 'related_resource', from: set.ids.group.get(l.group_id)!, target: l.resource_id, table: 'resources' });
    }
    for (const l of await repo.groupNotesOf(full)) {
      if (outside('note', l.note_id)) pending.push({ kind: 'related_note', from: set.ids.group.get(l.group_id)!, target: l.note_id, table: 'notes' });
    }
    for (const l of await repo.noteResourcesOf(noteIds)) {
      if (outside('resource', l.resource_id)) pending.push({ kind: 'related_resource', from: set.ids.note.get(l.note_id)!, target: l.resource_id, table: 'resources' });
    }
    for (const l of await repo.noteGroupsOf(noteIds)) {
      if (outside('group', l.group_id)) pending.push({ kind: 'related_group', from: set.ids.note.get(l.note_id)!, target: l.group_id, table: 'groups' });
    }
    for (const l of await repo.resourceGroupsOf(resIds)) {
      if (outside('group', l.group_id)) pending.push({ kind: 'related_group', from: set.ids.resource.get(l.resource_id)!, target: l.group_id, table: 'groups' });
    }
    for (const l of await repo.resourceNotesOf(resIds)) {
      if (outside('note', l.note_id)) pending.push({ kind: 'related_note', from: set.ids.resource.get(l.resource_id)!, target: l.note_id, table: 'notes' });
    }
  }
  if (o.scope.group_relations) {
    const rels = await repo.relationsFrom(full);
    for (const r of rels) {
      if (outside('group', r.to_group_id)) pending.push({ kind: 'group_relation', from: set.ids.group.get(r.from_group_id)!, target: r.to_group_id, table: 'groups', type: r.type_name, relationId: r.id });
    }
  }
  if (set.series.length > 0) {
    const members = await repo.seriesMembers(set.series.map((s) => s.id));
    for (const m of members) {
      if (outside('resource', m.id)) pending.push({ kind: 'resource_series_sibling', from: set.ids.series.get(m.series_id!)!, target: m.id, table: 'resources' });
    }
  }

  const names = new Map<string, { name: string; visible: boolean }>();
  for (const table of ['groups', 'notes', 'resources'] as const) {
    const ids = [...new Set(pending.filter((p) => p.table === table).map((p) => p.target))];
    const rows =
      table === 'groups'
        ? (await repo.groupNames(ids)).map((r) => ({ ...r, visible: vis.group(r.id) }))
        : (await repo.ownedStubs(table, ids)).map((r) => ({ id: r.id, name: r.name, visible: vis.owned(r.owner_id) }));
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

// Apply phase "wiring relationships": related groups, resources and notes, note attachments and
// typed relations between the imported entities, plus the dangling references the user mapped
// onto local rows. A link is made when both ends resolved and at least one end was created or
// changed by this import (entities left untouched by policy keep their links as they are).
// Relations must fit their type's categories like any relation; existing links are kept.
import type { ImportApplyRepository } from './repository.js';
import type { ApplyRun, LinkTable, PendingLink, Resolved } from './run.js';

function ends(run: ApplyRun, table: LinkTable): [Map<string, Resolved>, Map<string, Resolved>] {
  if (table === 'group_related_groups') return [run.groups, run.groups];
  if (table === 'groups_related_resources') return [run.groups, run.resources];
  if (table === 'groups_related_notes') return [run.groups, run.notes];
  return [run.notes, run.resources];
}

function resolve(map: Map<string, Resolved>, ref: string | number | undefined): Resolved | undefined {
  if (ref === undefined) return undefined;
  return typeof ref === 'number' ? { id: ref, touched: false } : map.get(ref);
}

/** Dangling references the user mapped onto local rows, as links. */
function mappedDangling(run: ApplyRun): PendingLink[] {
  const kindOf = new Map<string, 'group' | 'note' | 'resource'>();
  for (const g of run.index.groups) kindOf.set(g.id, 'group');
  for (const n of run.index.notes) kindOf.set(n.id, 'note');
  for (const r of run.index.resources) kindOf.set(r.id, 'resource');
  const out: PendingLink[] = [];
  for (const ref of run.plan.dangling_refs) {
    const decision = run.d.dangling[ref.id];
    if (decision?.action !== 'map' || decision.destinationId === null) continue;
    const dest = decision.destinationId;
    const from = ref.from_export_id;
    const kind = kindOf.get(from);
    if (kind === 'group') {
      if (ref.kind === 'related_group') out.push({ table: 'group_related_groups', group: from, other: dest });
      if (ref.kind === 'related_resource') out.push({ table: 'groups_related_resources', group: from, other: dest });
      if (ref.kind === 'related_note') out.push({ table: 'groups_related_notes', group: from, other: dest });
    } else if (kind === 'note') {
      if (ref.kind === 'related_group') out.push({ table: 'groups_related_notes', group: dest, other: from });
      if (ref.kind === 'related_resource') out.push({ table: 'resource_notes', group: from, other: dest });
    } else if (kind === 'resource') {
      if (ref.kind === 'related_group') out.push({ table: 'groups_related_resources', group: dest, other: from });
      if (ref.kind === 'related_note') out.push({ table: 'resource_notes', group: dest, other: from });
    }
  }
  return out;
}

async function insertLinks(run: ApplyRun, repo: ImportApplyRepository): Promise<void> {
  const rows = new Map<LinkTable, Map<string, [number, number]>>();
  for (const link of [...run.links, ...mappedDangling(run)]) {
    const [left, right] = ends(run, link.table);
    const a = resolve(left, link.group);
    const b = resolve(right, link.other);
    if (!a || !b || (!a.touched && !b.touched)) continue;
    if (link.table === 'group_related_groups' && a.id === b.id) continue;
    const set = rows.get(link.table) ?? new Map<string, [number, number]>();
    set.set(`${a.id}:${b.id}`, [a.id, b.id]);
    rows.set(link.table, set);
  }
  for (const [table, set] of rows) await repo.insertLinks(table, [...set.values()]);
}

async function insertRelations(run: ApplyRun, repo: ImportApplyRepository): Promise<void> {
  const wanted = run.relations.flatMap((r) => {
    const from = run.groups.get(r.from);
    const to = typeof r.to === 'number' ? { id: r.to, touched: false } : run.groups.get(r.to);
    if (!from || !to || (!from.touched && !to.touched) || from.id === to.id) return [];
    const typeId = run.vocab.get(r.typeKey) ?? null;
    if (typeId === null) {
      run.warn(`a relation "${r.typeKey.replace('group_relation_type:', '')}" was left out: its relation type was not imported`);
      return [];
    }
    return [{ ...r, fromId: from.id, toId: to.id, typeId }];
  });
  if (wanted.length === 0) return;
  const groupIds = [...new Set(wanted.flatMap((w) => [w.fromId, w.toId]))];
  const categories = new Map((await repo.groupCategories(groupIds)).map((g) => [g.id, g.category_id]));
  const typeIds = [...new Set(wanted.map((w) => w.typeId))];
  const types = new Map((await repo.relationTypeCategories(typeIds)).map((t) => [t.id, t]));
  const now = new Date().toISOString();
  const rows = wanted.flatMap((w) => {
    const t = types.get(w.typeId);
    const fits = t && t.from_category_id !== null && t.from_category_id === categories.get(w.fromId) && t.to_category_id === categories.get(w.toId);
    if (!fits) {
      run.warn(`a relation between groups ${w.fromId} and ${w.toId} was left out: the groups' categories do not fit its relation type`);
      return [];
    }
    return [{ created_at: now, updated_at: now, created_by_user_id: run.actor.principal.userId, name: w.name, description: w.description, from_group_id: w.fromId, to_group_id: w.toId, relation_type_id: w.typeId }];
  });
  await repo.insertRelations(rows);
}

export async function applyLinks(run: ApplyRun): Promise<void> {
  await run.transactor.run(async (tx) => {
    const repo = run.repo.in(tx);
    await insertLinks(run, repo);
    await insertRelations(run, repo);
  });
}

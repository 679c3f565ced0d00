// Apply phase "wiring relationships": related groups, resources and notes, note attachments and
// typed relations between the imported entities, plus the dangling references the user mapped
// onto local rows. A link is made when both ends resolved and at least one end was created or
// changed by this import (entities left untouched by policy keep their links as they are).
// Relations must fit their type's categories like any relation; existing links are kept.
import { slices } from '../../archive/batches.js';
import type { ApplyRun, Db, LinkTable, PendingLink, Resolved } from './run.js';

const COLUMNS: Record<LinkTable, [string, string]> = {
  group_related_groups: ['group_id', 'related_group_id'],
  groups_related_resources: ['group_id', 'resource_id'],
  groups_related_notes: ['group_id', 'note_id'],
  resource_notes: ['note_id', 'resource_id'],
};

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

async function insertLinks(run: ApplyRun, db: Db): Promise<void> {
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
  for (const [table, set] of rows) {
    const [ca, cb] = COLUMNS[table];
    for (const slice of slices([...set.values()])) {
      await db
        .insertInto(table as 'group_related_groups')
        .values(slice.map(([a, b]) => ({ [ca]: a, [cb]: b }) as { group_id: number; related_group_id: number }))
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

async function insertRelations(run: ApplyRun, db: Db): Promise<void> {
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
  const categories = new Map<number, number | null>();
  for (const s of slices(groupIds)) for (const g of await db.selectFrom('groups').select(['id', 'category_id']).where('id', 'in', s).execute()) categories.set(g.id, g.category_id);
  const typeIds = [...new Set(wanted.map((w) => w.typeId))];
  const types = new Map((await db.selectFrom('group_relation_types').select(['id', 'from_category_id', 'to_category_id']).where('id', 'in', typeIds).execute()).map((t) => [t.id, t]));
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
  for (const slice of slices(rows)) {
    await db
      .insertInto('group_relations')
      .values(slice)
      .onConflict((oc) => oc.columns(['from_group_id', 'to_group_id', 'relation_type_id']).doNothing())
      .execute();
  }
}

export async function applyLinks(run: ApplyRun): Promise<void> {
  await run.db.transaction().execute(async (trx) => {
    await insertLinks(run, trx);
    await insertRelations(run, trx);
  });
}

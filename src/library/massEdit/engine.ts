// Runs a mass-edit plan in one transaction: resolve the selection (explicit ids, or a list
// filter recounted against ExpectedCount), then the link ops, the meta op and, last, the owner
// op. Work is done in chunks of ids so every statement stays within the engines' parameter
// limits; any failure rolls the whole edit back.
import { sql, type Transaction } from 'kysely';
import { nowIso } from '../../core/db/values.js';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/crud.js';
import { checkCarrierMeta, writeMeta, type ContentKind, type LinkSpec } from '../common/content.js';
import { storedMeta, type MetaObject } from '../meta/paths.js';
import type { Database } from '../schema/database.js';
import { opNames, type LinkOp, type MassEditPlan, type MetaOp, type OwnerOp } from './plan.js';

type Trx = Transaction<Database>;
const CHUNK = 500;

export interface MassEditResult {
  entity: string;
  matched: number;
  affected: number;
  ops: { op: string; rowsAffected: number }[];
  dryRun: boolean;
}

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function requireIds(trx: Trx, table: 'tags' | 'groups' | 'notes' | 'resources', ids: number[], label: string): Promise<void> {
  for (const part of chunks(ids)) {
    const found = await trx.selectFrom(table).select('id').where('id', 'in', part).execute();
    if (found.length !== part.length) {
      const have = new Set(found.map((r) => r.id));
      throw notFound(`${label} ${part.find((i) => !have.has(i))} not found`);
    }
  }
}

async function resolveSelection(trx: Trx, kind: ContentKind, plan: MassEditPlan, ceiling: number): Promise<number[]> {
  const s = plan.selection;
  if (s.target === 'ids') {
    await requireIds(trx, kind.table, s.ids, kind.entity);
    return s.ids;
  }
  const ids = await kind.filterIds(trx, s.query, ceiling + 1);
  if (ids.length > ceiling) throw badRequest(`the filter matches more than ${ceiling} ${kind.plural}; narrow it down`);
  if (ids.length !== s.expected) throw conflict(`the filter now matches ${ids.length} ${kind.plural}, not the expected ${s.expected}`);
  return ids;
}

/** Adds, removes or replaces link rows; returns rows changed and the entities they belong to. */
async function runLink(trx: Trx, spec: LinkSpec, op: LinkOp, selection: number[], touched: Set<number>): Promise<number> {
  const self = sql.ref(spec.self);
  const other = sql.ref(spec.other);
  const table = sql.table(spec.table);
  const selfLinks = spec.target === 'groups' && spec.table === 'group_related_groups';
  let rows = 0;
  for (const part of chunks(selection)) {
    const existing = await sql<{ s: number; o: number }>`SELECT ${self} AS s, ${other} AS o FROM ${table} WHERE ${self} IN (${sql.join(part)})`.execute(trx);
    const have = new Set(existing.rows.map((r) => `${r.s}:${r.o}`));
    const wanted = new Set(op.ids);
    const toDelete = existing.rows.filter((r) => (op.verb === 'remove' ? wanted.has(r.o) : op.verb === 'replace' ? !wanted.has(r.o) : false));
    const toInsert =
      op.verb === 'remove'
        ? []
        : part.flatMap((s) => op.ids.filter((o) => !(selfLinks && o === s) && !have.has(`${s}:${o}`)).map((o) => ({ s, o })));
    for (const del of chunks(toDelete)) {
      const pairs = sql.join(del.map((d) => sql`(${self} = ${d.s} AND ${other} = ${d.o})`), sql` OR `);
      await sql`DELETE FROM ${table} WHERE ${pairs}`.execute(trx);
    }
    for (const ins of chunks(toInsert)) {
      await sql`INSERT INTO ${table} (${self}, ${other}) VALUES ${sql.join(ins.map((i) => sql`(${i.s}, ${i.o})`))}`.execute(trx);
    }
    for (const r of [...toDelete, ...toInsert]) touched.add(r.s);
    rows += toDelete.length + toInsert.length;
  }
  return rows;
}

function applyMeta(op: MetaOp, meta: MetaObject): { next: MetaObject; nulls: string[] } {
  if (op.verb === 'replace') return { next: { ...op.object }, nulls: [] };
  if (op.verb === 'merge') return { next: { ...meta, ...op.object }, nulls: Object.keys(op.object).filter((k) => op.object[k] === null) };
  const next = { ...meta };
  for (const k of op.keys) delete next[k];
  return { next, nulls: op.keys };
}

async function runMeta(trx: Trx, kind: ContentKind, op: MetaOp, selection: number[], touched: Set<number>): Promise<number> {
  let rows = 0;
  for (const part of chunks(selection)) {
    const current = (await trx
      .selectFrom(kind.table as 'groups')
      .select(['id', 'meta', sql.ref<number | null>(kind.carrier.column).as('carrier_id')])
      .where('id', 'in', part)
      .execute()) as { id: number; meta: string; carrier_id: number | null }[];
    for (const row of current) {
      const meta = storedMeta(row.meta);
      const { next, nulls } = applyMeta(op, meta);
      // A removed key that was never there changes nothing, except for inherited meta.
      if (JSON.stringify(next) === JSON.stringify(meta) && (nulls.length === 0 || !kind.writeMeta)) continue;
      await checkCarrierMeta(trx, kind.carrier, row.carrier_id, next);
      await writeMeta(trx, kind, row.id, next, nulls);
      touched.add(row.id);
      rows++;
    }
  }
  return rows;
}

async function runOwner(trx: Trx, kind: ContentKind, op: OwnerOp, selection: number[], touched: Set<number>): Promise<number> {
  if (op.ownerId !== null) {
    const owner = await trx.selectFrom('groups').select('id').where('id', '=', op.ownerId).executeTakeFirst();
    if (!owner) throw notFound(`owner group ${op.ownerId} not found`);
  }
  if (kind.checkOwner) await kind.checkOwner(trx, selection, op.ownerId);
  let rows = 0;
  for (const part of chunks(selection)) {
    const changed = (await trx
      .selectFrom(kind.table as 'groups')
      .select('id')
      .where('id', 'in', part)
      .where((eb) => (op.ownerId === null ? eb('owner_id', 'is not', null) : eb.or([eb('owner_id', 'is', null), eb('owner_id', '<>', op.ownerId)])))
      .execute()) as { id: number }[];
    if (changed.length === 0) continue;
    await trx
      .updateTable(kind.table as 'groups')
      .set({ owner_id: op.ownerId })
      .where('id', 'in', changed.map((c) => c.id))
      .execute();
    for (const c of changed) touched.add(c.id);
    rows += changed.length;
  }
  return rows;
}

export async function runMassEdit(lib: Library, kind: ContentKind, actor: Actor, plan: MassEditPlan, ceiling: number): Promise<MassEditResult> {
  const names = opNames(plan);
  if (plan.dryRun) {
    const matched = await lib.db.transaction().execute((trx) => resolveSelection(trx, kind, plan, ceiling));
    return { entity: kind.entity, matched: matched.length, affected: 0, ops: names.map((op) => ({ op, rowsAffected: 0 })), dryRun: true };
  }
  return withChange(lib, actor, 'update', kind.entity, async () => {
    const result = await lib.db.transaction().execute(async (trx) => {
      const selection = await resolveSelection(trx, kind, plan, ceiling);
      const touched = new Set<number>();
      const counts: number[] = [];
      for (const op of plan.links) {
        const spec = kind.links[op.link]!;
        await requireIds(trx, spec.target, op.ids, spec.target.replace(/s$/, ''));
        counts.push(await runLink(trx, spec, op, selection, touched));
      }
      if (plan.meta) counts.push(await runMeta(trx, kind, plan.meta, selection, touched));
      if (plan.owner) counts.push(await runOwner(trx, kind, plan.owner, selection, touched));
      const now = nowIso();
      for (const part of chunks([...touched])) {
        await trx
          .updateTable(kind.table as 'groups')
          .set({ updated_at: now })
          .where('id', 'in', part)
          .execute();
      }
      return { entity: kind.entity, matched: selection.length, affected: touched.size, ops: names.map((op, i) => ({ op, rowsAffected: counts[i] })), dryRun: false };
    });
    const summary = result.ops.map((o) => `${o.op} (${o.rowsAffected})`).join(', ') || 'no ops';
    return { message: `Mass edit of ${result.matched} ${kind.plural}: ${summary}`, result };
  });
}

// Shared plumbing for the simple named entities (tags, categories, resource categories, note
// types, template partials, saved queries, series): lookup by id, paged lists with the common
// filters, delete, inline name/description edits, and change events for the audit log.
import { randomUUID } from 'node:crypto';
import { sql, type Selectable, type SelectQueryBuilder, type Transaction, type Updateable } from 'kysely';
import { Type } from '@sinclair/typebox';
import { nowIso } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { ChangeAction } from '../../core/events/bus.js';
import type { Library } from '../context.js';
import type { Actor, Capability } from '../auth/principal.js';
import type { Database } from '../schema/database.js';
import { applyCommonFilters, applySort, pageOf, setPageHeaders, sortTerms, type CommonListInput, type SortSpec } from './list.js';
import { validName } from './names.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';

/** Tables whose rows have id, name, description, created_at and updated_at. */
export type NamedTable =
  | 'tags'
  | 'categories'
  | 'resource_categories'
  | 'note_types'
  | 'template_partials'
  | 'queries'
  | 'series'
  | 'groups'
  | 'notes'
  | 'resources'
  | 'group_relation_types'
  | 'group_relations';

// Kysely cannot type a query over "one of several tables" generically; every table in
// NamedTable has the columns used here, so queries are typed against `tags` as a stand-in.
type Stand = 'tags';
/** Columns every NamedTable row has. */
interface NamedRow {
  id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}
export type Row<T extends NamedTable> = Selectable<Database[T]> & NamedRow;
export type AnyQuery = SelectQueryBuilder<Database, Stand, object>;

export interface EntityKind<T extends NamedTable> {
  table: T;
  /** Entity type in the audit log and messages ("tag", "resource_category"). */
  entityType: string;
  /** Human label used in error messages ("tag", "resource category"). */
  label: string;
  sort: SortSpec;
}

/** Columns every new row carries: timestamps and the acting user (companion §2). */
export function rowStamp(actor: Actor) {
  const now = nowIso();
  return { created_at: now, updated_at: now, created_by_user_id: actor.principal.userId };
}

/** rowStamp plus a fresh GUID, for the tables export/import recognises entities by. */
export function newRowStamp(actor: Actor) {
  return { ...rowStamp(actor), guid: randomUUID() };
}

/** Emits the before/after change events around `work` (the audit log listens to `after`). */
export async function withChange<R>(
  lib: Library,
  actor: Actor,
  action: ChangeAction,
  entityType: string,
  work: () => Promise<{ id?: number; name?: string; result: R; before?: unknown; after?: unknown; message?: string }>,
): Promise<R> {
  await lib.bus.before({ entityType, action, principal: actor.principal, origin: actor.origin });
  const done = await work();
  await lib.bus.after({
    entityType,
    action,
    id: done.id,
    name: done.name,
    before: done.before,
    after: done.after,
    message: done.message,
    principal: actor.principal,
    origin: actor.origin,
  });
  return done.result;
}

export class Crud<T extends NamedTable> {
  constructor(
    readonly lib: Library,
    readonly kind: EntityKind<T>,
  ) {}

  private get t(): Stand {
    return this.kind.table as unknown as Stand;
  }

  async find(id: number): Promise<Row<T> | undefined> {
    return (await this.lib.db.selectFrom(this.t).selectAll().where('id', '=', id).executeTakeFirst()) as Row<T> | undefined;
  }

  async require(id: number | undefined): Promise<Row<T>> {
    if (id === undefined || id === null) throw badRequest('id is required');
    const row = await this.find(id);
    if (!row) throw notFound(`${this.kind.label} ${id} not found`);
    return row;
  }

  async findByName(name: string): Promise<Row<T> | undefined> {
    return (await this.lib.db.selectFrom(this.t).selectAll().where('name', '=', name).executeTakeFirst()) as Row<T> | undefined;
  }

  /** The filtered query before select, sort and paging. */
  filtered(input: CommonListInput, extra?: (q: AnyQuery) => AnyQuery): AnyQuery {
    let q = applyCommonFilters(this.lib.db.selectFrom(this.t), this.lib.dialect, this.kind.table, input) as AnyQuery;
    if (extra) q = extra(q);
    return q;
  }

  async list(input: CommonListInput, extra?: (q: AnyQuery) => AnyQuery, perPage?: number) {
    const { page, perPage: size, offset } = pageOf(input.page, perPage);
    const terms = sortTerms(this.lib.dialect, this.kind.table, input.SortBy, this.kind.sort);
    const rows = await applySort(this.filtered(input, extra).selectAll(this.t), terms).limit(size).offset(offset).execute();
    return { rows: rows as unknown as Row<T>[], page, perPage: size };
  }

  async count(input: CommonListInput, extra?: (q: AnyQuery) => AnyQuery): Promise<number> {
    const r = await this.filtered(input, extra).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async update(id: number, patch: Updateable<Database[T]>): Promise<void> {
    await this.lib.db
      .updateTable(this.t)
      .set({ ...(patch as Updateable<Database[Stand]>), updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  /** Deletes one row, emitting the change event; returns the deleted row. */
  async delete(actor: Actor, id: number | undefined, cleanup?: (trx: Transaction<Database>, row: Row<T>) => Promise<void>): Promise<Row<T>> {
    const row = await this.require(id);
    return withChange(this.lib, actor, 'delete', this.kind.entityType, async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        if (cleanup) await cleanup(trx, row);
        await trx.deleteFrom(this.t).where('id', '=', row.id).execute();
      });
      return { id: row.id, name: row.name, before: row, result: row };
    });
  }

  /** Inline edit of name or description (logged as an update, unlike the reference). */
  async editField(actor: Actor, id: number | undefined, field: 'name' | 'description', value: string): Promise<void> {
    const row = await this.require(id);
    const v = field === 'name' ? validName(value) : value;
    await withChange(this.lib, actor, 'update', this.kind.entityType, async () => {
      await this.update(row.id, { [field]: v } as Updateable<Database[T]>);
      return { id: row.id, name: field === 'name' ? v : row.name, before: row, result: undefined };
    });
  }
}

/**
 * A timeline source over a Crud table, optionally with the list's own filtered query.
 * Transitional: features move to NamedRepository.timeline as they get their repositories.
 */
export function crudTimeline<T extends NamedTable, I extends CommonListInput>(crud: Crud<T>, filtered?: (input: I) => AnyQuery) {
  return {
    label: crud.kind.label,
    async counts(input: I, buckets: readonly { start: string; end: string }[]) {
      const base = filtered ? filtered(input) : crud.filtered(input);
      const table = crud.kind.table;
      const created = sql.ref(`${table}.created_at`);
      const updated = sql.ref(`${table}.updated_at`);
      const from = buckets[0].start;
      const to = buckets[buckets.length - 1].end;
      const sums = buckets.flatMap((b, i) => [
        sql<number>`sum(CASE WHEN ${created} >= ${b.start} AND ${created} < ${b.end} THEN 1 ELSE 0 END)`.as(`c${i}`),
        sql<number>`sum(CASE WHEN ${updated} >= ${b.start} AND ${updated} < ${b.end} AND ${updated} > ${created} THEN 1 ELSE 0 END)`.as(`u${i}`),
      ]);
      const row = (await base
        .where(sql<boolean>`((${created} >= ${from} AND ${created} < ${to}) OR (${updated} >= ${from} AND ${updated} < ${to}))`)
        .select(sums)
        .executeTakeFirst()) as Record<string, number | null> | undefined;
      return buckets.map((_, i) => ({ created: Number(row?.[`c${i}`] ?? 0), updated: Number(row?.[`u${i}`] ?? 0) }));
    },
  };
}

/** Sends a list with page headers (and X-Total-Count when given). */
export function sendList<R>(reply: import('fastify').FastifyReply, rows: R[], page: number, perPage: number, total?: number): R[] {
  setPageHeaders(reply, page, perPage, total);
  return rows;
}

const EditInput = Type.Object({
  id: Type.Integer(),
  Name: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
});

/**
 * Registers `<base>/editName?id=` and/or `<base>/editDescription?id=`. The new value is the
 * body's Name/Description (or `value`); the reply is {ok: true, id} (companion §11.1).
 */
/** What inline edits need: a label and the edit itself (Crud today, NamedEntities next). */
export interface InlineEditable {
  kind: { label: string };
  editField(actor: Actor, id: number | undefined, field: 'name' | 'description', value: string): Promise<void>;
}

export function registerInlineEdits(
  routes: LibraryRoutes,
  crud: InlineEditable,
  opts: { base: string; page: string; needs: Capability; tag: string; name?: boolean; description?: boolean },
): void {
  const edits: ['name' | 'description', string][] = [];
  if (opts.name !== false) edits.push(['name', 'editName']);
  if (opts.description !== false) edits.push(['description', 'editDescription']);
  for (const [field, suffix] of edits) {
    routes.add({
      method: 'POST',
      path: `${opts.base}/${suffix}`,
      tag: opts.tag,
      summary: `Inline edit of the ${crud.kind.label} ${field}`,
      needs: opts.needs,
      input: EditInput,
      handler: async ({ req, reply, input }) => {
        const value = (field === 'name' ? input.Name : input.Description) ?? input.value;
        if (value === undefined) throw badRequest(`${field === 'name' ? 'Name' : 'Description'} is required`);
        await crud.editField(actorOf(req), input.id, field, value);
        return sendWrite(req, reply, { ok: true, id: input.id }, `${opts.page}?id=${input.id}`);
      },
    });
  }
}

// Saved SQL queries (contract: Saved SQL queries): unique names, run read-only by id or name
// with `:name` parameters bound from the request, and the schema browser.
import { sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../core/http/errors.js';
import { containsText } from '../../core/db/fragments.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { Crud, rowStamp, withChange, type AnyQuery, type Row } from '../common/crud.js';
import type { CommonListInput } from '../common/list.js';
import { validName } from '../common/names.js';

export type QueryRow = Row<'queries'>;

export function queryRecord(row: QueryRow) {
  return { ID: row.id, CreatedAt: row.created_at, UpdatedAt: row.updated_at, Name: row.name, Text: row.text, Template: row.template, Description: row.description };
}

export interface QueryWrite {
  ID?: number;
  Name?: string;
  Text?: string;
  Template?: string;
  Description?: string;
}

/** Tables the schema browser leaves out: the migrator's bookkeeping and SQLite internals. */
const INTERNAL = /^(kysely_|sqlite_)|_fts(_|$)/;

export class QueryService {
  readonly crud: Crud<'queries'>;

  constructor(private readonly lib: Library) {
    this.crud = new Crud(lib, {
      table: 'queries',
      entityType: 'query',
      label: 'query',
      sort: { columns: ['id', 'name', 'text', 'description', 'created_at', 'updated_at'], meta: false },
    });
  }

  /** The Text filter on top of the common ones, for the list and its timeline. */
  textFilter(input: CommonListInput & { Text?: string }) {
    const text = input.Text;
    return text ? (q: AnyQuery) => q.where(containsText(this.lib.dialect, 'queries.text', text)) : undefined;
  }

  private async checkName(name: string, id?: number): Promise<void> {
    const clash = await this.crud.findByName(name);
    if (clash && clash.id !== id) throw conflict(`a saved query named "${name}" already exists`);
  }

  async save(actor: Actor, input: QueryWrite): Promise<QueryRow> {
    if (input.ID) {
      const before = await this.crud.require(input.ID);
      const name = input.Name === undefined ? before.name : validName(input.Name);
      await this.checkName(name, before.id);
      return withChange(this.lib, actor, 'update', 'query', async () => {
        await this.crud.update(before.id, {
          name,
          text: input.Text ?? before.text,
          template: input.Template ?? before.template,
          description: input.Description ?? before.description,
        });
        const after = await this.crud.require(before.id);
        return { id: before.id, name, before, after, result: after };
      });
    }
    const name = validName(input.Name);
    await this.checkName(name);
    return withChange(this.lib, actor, 'create', 'query', async () => {
      const stamp = rowStamp(actor);
      const row = await this.lib.db
        .insertInto('queries')
        .values({ ...stamp, name, text: input.Text ?? '', template: input.Template ?? '', description: input.Description ?? '' })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { id: row.id, name, after: row, result: row as QueryRow };
    });
  }

  /** Runs a saved query by id, or by name when no id is given. */
  async run(ref: { id?: number; name?: string }, params: Record<string, unknown>) {
    let row: QueryRow | undefined;
    if (ref.id !== undefined) row = await this.crud.find(ref.id);
    else if (ref.name) row = await this.crud.findByName(ref.name);
    else throw badRequest('id or name is required');
    if (!row) throw notFound('saved query not found');
    if (row.text.trim() === '') throw badRequest('the saved query has no SQL text');
    return this.lib.readonlySql.run(row.text, params);
  }

  /** Table name → column names in ordinal order. */
  async schema(): Promise<Record<string, string[]>> {
    const rows =
      this.lib.dialect.kind === 'sqlite'
        ? (
            await sql<{ table_name: string; column_name: string }>`
              SELECT m.name AS table_name, p.name AS column_name
              FROM sqlite_master m JOIN pragma_table_info(m.name) p
              WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid`.execute(this.lib.db)
          ).rows
        : (
            await sql<{ table_name: string; column_name: string }>`
              SELECT table_name, column_name FROM information_schema.columns
              WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`.execute(this.lib.db)
          ).rows;
    const out: Record<string, string[]> = {};
    for (const r of rows) if (!INTERNAL.test(r.table_name)) (out[r.table_name] ??= []).push(r.column_name);
    return out;
  }
}

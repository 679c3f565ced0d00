// Saved SQL queries (contract: Saved SQL queries): unique names, run read-only by id or name
// with `:name` parameters bound from the request, and the schema browser.
import { badRequest, forbidden, notFound } from '../../core/http/errors.js';
import { isScoped, type Actor, type Principal } from '../auth/principal.js';
import { rowStamp, withChange } from '../common/changes.js';
import { NamedEntities, type NamedDeps } from '../common/named.js';
import { validName } from '../common/names.js';
import type { ReadonlyRunner } from './readonly.js';
import { QueryRepository, type QueryListFilter, type QueryRow } from './repository.js';


/** The refusal of saved SQL to group-limited principals (reference wording). */
export const SAVED_SQL_REFUSED = 'saved SQL queries are not available for group-limited accounts';
export type { QueryRow };

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

export interface QueryDeps extends NamedDeps {
  /** Executes saved SQL read-only. */
  readonlySql: ReadonlyRunner;
}

/** Tables the schema browser leaves out: the migrator's bookkeeping and SQLite internals. */
const INTERNAL = /^(kysely_|sqlite_)|_fts(_|$)/;

export class QueryService {
  readonly named: NamedEntities<'queries', QueryListFilter>;
  private readonly repo: QueryRepository;
  private readonly deps: QueryDeps;

  constructor(repo: QueryRepository, deps: QueryDeps) {
    this.repo = repo;
    this.deps = deps;
    this.named = new NamedEntities(this.repo, { entityType: 'query', label: 'query', uniqueName: true }, this.deps);
  }

  async save(actor: Actor, input: QueryWrite): Promise<QueryRow> {
    if (input.ID) {
      const before = await this.named.require(input.ID);
      const name = input.Name === undefined ? before.name : validName(input.Name);
      await this.named.assertNameFree(name, before.id);
      return withChange(this.deps.bus, actor, 'update', 'query', async () => {
        await this.repo.update(before.id, {
          name,
          text: input.Text ?? before.text,
          template: input.Template ?? before.template,
          description: input.Description ?? before.description,
        });
        const after = await this.named.require(before.id);
        return { id: before.id, name, before, after, result: after };
      });
    }
    const name = validName(input.Name);
    await this.named.assertNameFree(name);
    return withChange(this.deps.bus, actor, 'create', 'query', async () => {
      const row = await this.repo.insert({ ...rowStamp(actor), name, text: input.Text ?? '', template: input.Template ?? '', description: input.Description ?? '' });
      return { id: row.id, name, after: row, result: row };
    });
  }

  /**
   * Runs a saved query by id, or by name when no id is given. Arbitrary SQL cannot be confined
   * to a subtree, so group-limited principals are refused outright (companion §10.10).
   */
  async run(principal: Principal, ref: { id?: number; name?: string }, params: Record<string, unknown>) {
    if (isScoped(principal)) throw forbidden(SAVED_SQL_REFUSED);
    let row: QueryRow | undefined;
    if (ref.id !== undefined) row = await this.repo.find(ref.id);
    else if (ref.name) row = await this.repo.findByName(ref.name);
    else throw badRequest('id or name is required');
    if (!row) throw notFound('saved query not found');
    if (row.text.trim() === '') throw badRequest('the saved query has no SQL text');
    return this.deps.readonlySql.run(row.text, params);
  }

  /** Table name → column names in ordinal order. */
  async schema(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const r of await this.repo.columns()) if (!INTERNAL.test(r.table_name)) (out[r.table_name] ??= []).push(r.column_name);
    return out;
  }
}

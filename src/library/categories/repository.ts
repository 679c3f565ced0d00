// Carrier rows (categories, resource categories, note types), the entities each one types, and
// the MetaSchema lookup content writes check against.
import type { Insertable } from 'kysely';
import type { Executor } from '../../core/db/repository.js';
import type { Dialect } from '../../core/db/dialect/index.js';
import type { CategoryTable, Database } from '../schema/database.js';
import { NamedRepository, type NamedRow } from '../common/named.repository.js';
import type { CarrierKind } from './kinds.js';

export type CarrierTable = CarrierKind['table'];
export type CarrierRow = NamedRow<CarrierTable> & Record<string, unknown>;

/** The entities a carrier types: table and the column pointing at the carrier. */
const TYPED = {
  categories: ['groups', 'category_id'],
  resource_categories: ['resources', 'resource_category_id'],
  note_types: ['notes', 'note_type_id'],
} as const;

export type CarrierInsert = Pick<Insertable<CategoryTable>, 'name' | 'created_at' | 'updated_at'> & Record<string, unknown>;

export type TypedTable = (typeof TYPED)[CarrierTable][0];

/**
 * Name and MetaSchema of one carrier. A function as well as a repository method because the
 * import phases, which hold only a database handle, check imported meta with it.
 */
export function carrierSchema(db: Executor<Database>, table: CarrierTable, id: number): Promise<{ name: string; meta_schema: string } | undefined> {
  return db.selectFrom(table as 'categories').select(['name', 'meta_schema']).where('id', '=', id).executeTakeFirst();
}

export class CarrierRepository extends NamedRepository<CarrierTable> {
  protected readonly table: CarrierTable;
  protected readonly sort = { columns: ['id', 'name', 'description', 'created_at', 'updated_at'], meta: false };

  constructor(
    db: Executor<Database>,
    dialect: Dialect,
    readonly kind: CarrierKind,
  ) {
    super(db, dialect);
    this.table = kind.table;
  }

  /** Inserts a carrier; slot columns left out take their defaults. */
  async insert(row: CarrierInsert): Promise<CarrierRow> {
    return (await this.db
      .insertInto(this.table as 'categories')
      .values(row as unknown as Insertable<CategoryTable>)
      .returningAll()
      .executeTakeFirstOrThrow()) as CarrierRow;
  }

  /** Every carrier's id and name, by name (form selects). */
  async options(): Promise<{ id: number; name: string }[]> {
    return this.db.selectFrom(this.table as 'categories').select(['id', 'name']).orderBy('name').orderBy('id').execute();
  }

  schemaOf(id: number) {
    return carrierSchema(this.db, this.table, id);
  }

  /** The table of the entities this carrier kind types. */
  get typedTable(): TypedTable {
    return TYPED[this.table][0];
  }

  /** The first `limit` entities typed by carrier `id`, by name. */
  async members(id: number, limit: number): Promise<{ id: number; name: string }[]> {
    const [table, col] = TYPED[this.table];
    return this.db
      .selectFrom(table as 'groups')
      .select(['id', 'name'])
      .where(col as 'category_id', '=', id)
      .orderBy('name')
      .limit(limit)
      .execute();
  }

  async memberCount(id: number): Promise<number> {
    const [table, col] = TYPED[this.table];
    const r = await this.db
      .selectFrom(table as 'groups')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(col as 'category_id', '=', id)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Moves the resources of resource category `from` to `to`. */
  async reassignResources(from: number, to: number, now: string): Promise<void> {
    await this.db.updateTable('resources').set({ resource_category_id: to, updated_at: now }).where('resource_category_id', '=', from).execute();
  }
}

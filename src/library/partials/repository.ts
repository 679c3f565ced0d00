// Template partial rows.
import type { Insertable } from 'kysely';
import type { TemplatePartialTable } from '../schema/database.js';
import { NamedRepository, type NamedRow } from '../common/named.repository.js';

export type PartialRow = NamedRow<'template_partials'>;

export class PartialRepository extends NamedRepository<'template_partials'> {
  protected readonly table = 'template_partials';
  protected readonly sort = { columns: ['id', 'name', 'description', 'created_at', 'updated_at'], meta: false };

  async insert(row: Insertable<TemplatePartialTable>): Promise<PartialRow> {
    return (await this.db.insertInto('template_partials').values(row).returningAll().executeTakeFirstOrThrow()) as PartialRow;
  }
}

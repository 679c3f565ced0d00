// What planning and checking an import read from this library (companion §7.5 steps 2–3):
// vocabulary by case-folded name or GUID, relation types with their categories' names, groups,
// notes and resources by GUID, hashes already stored, series by slug, and which chosen
// destination ids exist. Lists of any length are read in slices of 500.
import type { Selectable } from 'kysely';
import { ref } from '../../core/db/fragments.js';
import { Repository } from '../../core/db/repository.js';
import { fragment } from '../../core/db/sql-text.js';
import type { Database, SeriesTable } from '../schema/database.js';
import { batched } from '../archive/batches.js';

export type VocabularyTable = 'categories' | 'note_types' | 'resource_categories' | 'tags';
export type GuidTable = VocabularyTable | 'group_relation_types' | 'groups' | 'notes' | 'resources';
export type LocalRow = { id: number; name: string; guid: string | null };
export type LocalRelationType = LocalRow & { from_category_id: number | null; to_category_id: number | null; from_name: string | null; to_name: string | null };

export class ImportPlanRepository extends Repository<Database> {
  /** Rows whose case-folded name is one of `folded` (already folded by the caller). */
  async byFoldedName(table: VocabularyTable, folded: readonly string[]): Promise<LocalRow[]> {
    const name = fragment<string>(this.dialect, () => this.dialect.fold(ref('name')));
    return batched([...folded], (s) => this.db.selectFrom(table).select(['id', 'name', 'guid']).where(name, 'in', s).orderBy('id').execute());
  }

  async byGuid(table: GuidTable, guids: readonly string[]): Promise<LocalRow[]> {
    return batched([...guids], (s) => this.db.selectFrom(table).select(['id', 'name', 'guid']).where('guid', 'in', s).execute());
  }

  /** Relation types whose case-folded name is one of `folded`, with their categories' names. */
  async relationTypesByFoldedName(folded: readonly string[]): Promise<LocalRelationType[]> {
    const name = fragment<string>(this.dialect, () => this.dialect.fold(ref('t.name')));
    return batched([...folded], (s) =>
      this.db
        .selectFrom('group_relation_types as t')
        .leftJoin('categories as f', 'f.id', 't.from_category_id')
        .leftJoin('categories as c', 'c.id', 't.to_category_id')
        .select(['t.id', 't.name', 't.guid', 't.from_category_id', 't.to_category_id', 'f.name as from_name', 'c.name as to_name'])
        .where(name, 'in', s)
        .orderBy('t.id')
        .execute(),
    );
  }

  /** The hashes among `hashes` that a resource's current file has. */
  async currentHashes(hashes: readonly string[]): Promise<string[]> {
    const rows = await batched([...hashes], (s) => this.db.selectFrom('resources').select('hash').where('hash', 'in', s).execute());
    return rows.map((r) => r.hash);
  }

  /** The hashes among `hashes` that some resource version has. */
  async versionHashes(hashes: readonly string[]): Promise<string[]> {
    const rows = await batched([...hashes], (s) => this.db.selectFrom('resource_versions').select('hash').where('hash', 'in', s).execute());
    return rows.map((r) => r.hash);
  }

  async seriesBySlug(slugs: readonly string[]): Promise<Pick<Selectable<SeriesTable>, 'id' | 'name' | 'slug'>[]> {
    return batched([...slugs], (s) => this.db.selectFrom('series').select(['id', 'name', 'slug']).where('slug', 'in', s).execute());
  }

  /** The ids among `ids` that exist in `table`. */
  async existing(table: GuidTable, ids: readonly number[]): Promise<number[]> {
    const rows = await batched([...ids], (s) => this.db.selectFrom(table).select('id').where('id', 'in', s).execute());
    return rows.map((r) => r.id);
  }
}

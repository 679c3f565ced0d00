// JSON shapes of relation types and relations (companion §2.1). Relation types are
// capitalised with `ID`; relations spell their id `Id` and the type `GroupRelationTypeId`, like
// the request parameters. Associations not loaded serialise as null (lists).
import type { Selectable } from 'kysely';
import type { RelationTable, RelationTypeTable } from '../schema/database.js';
import { categoryStub } from '../groups/records.js';

export type RelationTypeRow = Selectable<RelationTypeTable>;
export type RelationRow = Selectable<RelationTable>;

type CategoryStub = ReturnType<typeof categoryStub>;

export interface RelationTypeRecord {
  ID: number;
  CreatedAt: string;
  UpdatedAt: string;
  Name: string;
  Description: string;
  FromCategory: CategoryStub;
  FromCategoryId: number | null;
  ToCategory: CategoryStub;
  ToCategoryId: number | null;
  BackRelation: RelationTypeRecord | null;
  BackRelationId: number | null;
}

export function relationTypeRecord(
  row: RelationTypeRow,
  loaded: { from?: CategoryStub; to?: CategoryStub; back?: RelationTypeRow | null } = {},
): RelationTypeRecord {
  return {
    ID: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Name: row.name,
    Description: row.description,
    FromCategory: loaded.from ?? null,
    FromCategoryId: row.from_category_id,
    ToCategory: loaded.to ?? null,
    ToCategoryId: row.to_category_id,
    BackRelation: loaded.back ? relationTypeRecord(loaded.back) : null,
    BackRelationId: row.back_relation_id,
  };
}

export interface GroupStub {
  ID: number;
  Name: string;
}

export function relationRecord(
  row: RelationRow,
  loaded: { from?: GroupStub | null; to?: GroupStub | null; type?: RelationTypeRow | null } = {},
) {
  return {
    Id: row.id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
    Name: row.name,
    Description: row.description,
    FromGroup: loaded.from ?? null,
    FromGroupId: row.from_group_id,
    ToGroup: loaded.to ?? null,
    ToGroupId: row.to_group_id,
    RelationType: loaded.type ? relationTypeRecord(loaded.type) : null,
    GroupRelationTypeId: row.relation_type_id,
  };
}

export type RelationRecord = ReturnType<typeof relationRecord>;

// What edit-meta, bulk meta and mass edit need to know about a content entity (resources,
// notes, groups): its table, its links to other entities, the carrier whose MetaSchema checks
// its Meta, and the few places where an entity stores or checks things its own way. Hooks run
// inside the edit's transaction and receive it, to run their repositories in it.
import type { Executor, Tx } from '../../core/db/repository.js';
import type { Database } from '../schema/database.js';
import type { Visibility } from '../auth/visibility.js';
import { carrierSchema } from '../categories/repository.js';
import { checkMeta } from '../meta/schema.js';
import type { MetaObject } from '../meta/paths.js';

export type ContentEntity = 'resource' | 'note' | 'group';
export type ContentTable = 'resources' | 'notes' | 'groups';
export type LinkName = 'tags' | 'groups' | 'notes' | 'resources' | 'relatedGroups';

/** A many-to-many link: rows of `table` pair `self` (this entity) with `other` (in `target`). */
export interface LinkSpec {
  table: 'resource_tags' | 'note_tags' | 'group_tags' | 'resource_notes' | 'groups_related_resources' | 'groups_related_notes' | 'group_related_groups';
  self: string;
  other: string;
  target: 'tags' | 'groups' | 'notes' | 'resources';
}

export interface CarrierRef {
  table: 'categories' | 'resource_categories' | 'note_types';
  /** The entity's column pointing at the carrier. */
  column: 'category_id' | 'resource_category_id' | 'note_type_id';
  label: string;
}

export interface ContentKind {
  entity: ContentEntity;
  table: ContentTable;
  /** Plural label for messages ("groups"). */
  plural: string;
  carrier: CarrierRef;
  links: Partial<Record<LinkName, LinkSpec>>;
  /** Ids of the entities a list page query selects (mass edit Target=filter), at most `limit`. */
  filterIds(tx: Tx<Database>, vis: Visibility, query: Record<string, unknown>, limit: number): Promise<number[]>;
  /**
   * Stores a new effective meta. `nullOverrides` are keys the edit removed or set to null;
   * entities that inherit meta (resources in a series) keep them as explicit nulls.
   */
  writeMeta?(tx: Tx<Database>, id: number, meta: MetaObject, nullOverrides: string[]): Promise<void>;
  /** Refuses owner changes that break the entity's own rules (groups: cycles, 409). */
  checkOwner?(tx: Tx<Database>, ids: number[], ownerId: number | null): Promise<void>;
}

/**
 * Checks `meta` against the MetaSchema of the carrier `carrierId` (400 with errors).
 * Transitional, for the import phases, which hold only a database handle; features wired with
 * the carrier services call `CarrierService.checkEntityMeta`.
 */
export async function checkCarrierMeta(db: Executor<Database>, carrier: CarrierRef, carrierId: number | null, meta: MetaObject): Promise<void> {
  if (carrierId === null) return;
  const row = await carrierSchema(db, carrier.table, carrierId);
  if (row) checkMeta(row.meta_schema, meta, carrier.label, row.name);
}

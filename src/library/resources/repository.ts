// Resource rows: the filtered list (every filter of GET /v1/resources in SQL), lookups by id,
// hash and location, inserts and column updates. Links, vocabularies, series and versions
// have their own repositories beside this one.
import { sql, type Insertable, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import { containsText } from '../../core/db/fragments.js';
import { applyDateBounds } from '../common/list.repository.js';
import { insideScope } from '../auth/visibility.repository.js';
import type { Visibility } from '../auth/visibility.js';
import { NamedRepository, type NamedQuery } from '../common/named.repository.js';
import { metaQueryCondition } from '../meta/metaQuery.js';
import type { ResourceTable } from '../schema/database.js';
import { similarPair } from '../similarity/repository.js';
import { RESOURCE_SORT, type ResourceListQuery, type SimilarityThresholds } from './filters.js';
import type { ResourceRow } from './records.js';

/** The list filters plus what the service resolves for them. */
export interface ResourceFilter extends ResourceListQuery {
  /** The MRQL filter as a predicate over `resources` (mrqlListFilter), AND-ed with the rest. */
  mrql?: RawBuilder<SqlBool> | null;
  /** The similar-pair thresholds ShowWithSimilar applies. */
  thresholds: SimilarityThresholds;
}

/** A stored file: its location on a filesystem (null storage: the main one). */
export interface StoredFile {
  location: string;
  storage: string | null;
}

export class ResourceRepository extends NamedRepository<'resources', ResourceFilter, [vis: Visibility]> {
  protected readonly table = 'resources';

  protected override readonly plansSubtree = true;
  protected override readonly ownerColumn = 'resources.owner_id';

  /** Confined by its owner (companion §10.10). */
  protected override visibleWhere(vis?: Visibility): RawBuilder<SqlBool> | null {
    return vis ? insideScope(vis, 'resources.owner_id', this.dialect) : null;
  }
  protected readonly sort = RESOURCE_SORT;

  protected override filtered(f: ResourceFilter): NamedQuery {
    return this.query(f) as unknown as NamedQuery;
  }

  private query(f: ResourceFilter) {
    const d = this.dialect;
    let q = this.db.selectFrom('resources');
    if (f.mrql) q = q.where(f.mrql);
    if (f.Name) q = q.where(containsText(d, 'resources.name', f.Name));
    if (f.Description) q = q.where(containsText(d, 'resources.description', f.Description));
    if (f.ContentType) q = q.where(containsText(d, 'resources.content_type', f.ContentType));
    const types = (f.ContentTypes ?? []).filter((x) => x.trim() !== '');
    if (types.length) q = q.where('resources.content_type', 'in', types);
    q = applyDateBounds(q, 'resources', 'created_at', f.CreatedBefore, f.CreatedAfter, 'Created');
    q = applyDateBounds(q, 'resources', 'updated_at', f.UpdatedBefore, f.UpdatedAfter, 'Updated');
    if (f.OwnerId !== undefined) {
      if (f.IncludeSubgroups) {
        q = q.where(sql<SqlBool>`resources.owner_id IN (
          WITH RECURSIVE sub(id) AS (SELECT id FROM "groups" WHERE id = ${f.OwnerId} UNION SELECT g.id FROM "groups" g JOIN sub ON g.owner_id = sub.id)
          SELECT id FROM sub)`);
      } else {
        q = q.where('resources.owner_id', '=', f.OwnerId);
      }
    }
    if (f.ShowWithoutOwner) q = q.where('resources.owner_id', 'is', null);
    for (const tag of new Set(f.Tags ?? [])) {
      q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM resource_tags rt WHERE rt.resource_id = resources.id AND rt.tag_id = ${tag})`);
    }
    if (f.Untagged) q = q.where(sql<SqlBool>`NOT EXISTS (SELECT 1 FROM resource_tags rt WHERE rt.resource_id = resources.id)`);
    for (const g of new Set(f.Groups ?? [])) {
      q = q.where(sql<SqlBool>`(resources.owner_id = ${g} OR EXISTS (SELECT 1 FROM groups_related_resources rr WHERE rr.resource_id = resources.id AND rr.group_id = ${g}))`);
    }
    for (const n of new Set(f.Notes ?? [])) {
      q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM resource_notes rn WHERE rn.resource_id = resources.id AND rn.note_id = ${n})`);
    }
    if (f.Ids?.length) q = q.where('resources.id', 'in', f.Ids);
    if (f.OriginalName) q = q.where('resources.original_name', '=', f.OriginalName);
    if (f.OriginalLocation) q = q.where('resources.original_location', '=', f.OriginalLocation);
    if (f.Hash) q = q.where('resources.hash', '=', f.Hash.trim().toLowerCase());
    if (f.MinWidth !== undefined) q = q.where('resources.width', '>=', f.MinWidth);
    if (f.MaxWidth !== undefined) q = q.where('resources.width', '<=', f.MaxWidth);
    if (f.MinHeight !== undefined) q = q.where('resources.height', '>=', f.MinHeight);
    if (f.MaxHeight !== undefined) q = q.where('resources.height', '<=', f.MaxHeight);
    if (f.ResourceCategoryId !== undefined) q = q.where('resources.resource_category_id', '=', f.ResourceCategoryId);
    if (f.SeriesId !== undefined) q = q.where('resources.series_id', '=', f.SeriesId);
    if (f.ShowWithSimilar) {
      // A stored similar pair within the thresholds, or an identical legacy difference hash.
      q = q.where(sql<SqlBool>`(
        EXISTS (SELECT 1 FROM resource_similarities p WHERE (p.resource_id1 = resources.id OR p.resource_id2 = resources.id) AND ${similarPair(f.thresholds)})
        OR EXISTS (SELECT 1 FROM image_hashes h1 JOIN image_hashes h2 ON h2.d_hash = h1.d_hash AND h2.resource_id <> h1.resource_id
                   WHERE h1.resource_id = resources.id AND h1.d_hash <> '' AND h1.status = 'ok' AND h2.status = 'ok'))`);
    }
    if (f.ShowDhashZero) {
      q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM image_hashes h WHERE h.resource_id = resources.id AND (h.d_hash_int = 0 OR h.d_hash = '0000000000000000'))`);
    }
    if (f.MetaQuery?.length) {
      const cond = metaQueryCondition(d, 'resources', f.MetaQuery);
      if (cond) q = q.where(cond);
    }
    return q;
  }

  /** Ids matching the filters in id order, at most `limit` (view-by-filter, mass edit). */
  /**
   * Whether a stored file (current or older version) belongs to a resource `vis` may see: the
   * file routes serve a confined caller only those (companion §10.10).
   */
  async servesFile(storage: string | null, location: string, vis: Visibility): Promise<boolean> {
    const seen = insideScope(vis, 'r.owner_id');
    if (!seen) return true;
    // Stored locations start with a slash (older rows may not); the URL path never does.
    const bare = location.replace(/^\/+/, '');
    const spellings = [bare, `/${bare}`];
    const store = storage === null ? sql<SqlBool>`v.storage_location IS NULL` : sql<SqlBool>`v.storage_location = ${storage}`;
    const hit = await this.db
      .selectFrom('resource_versions as v')
      .innerJoin('resources as r', 'r.id', 'v.resource_id')
      .select('v.id')
      .where('v.location', 'in', spellings)
      .where(store)
      .where(seen)
      .limit(1)
      .executeTakeFirst();
    if (hit) return true;
    const own = storage === null ? sql<SqlBool>`r.storage_location IS NULL` : sql<SqlBool>`r.storage_location = ${storage}`;
    return (await this.db.selectFrom('resources as r').select('r.id').where('r.location', 'in', spellings).where(own).where(seen).limit(1).executeTakeFirst()) !== undefined;
  }

  async matchingIds(f: ResourceFilter, limit: number, vis: Visibility): Promise<number[]> {
    const rows = await this.seenBy(this.query(f), [vis]).select('resources.id').orderBy('resources.id').limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** The oldest resource with this content hash (duplicates are refused by hash). */
  async idWithHash(hash: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('resources').select('id').where('hash', '=', hash).orderBy('id').executeTakeFirst();
    return row?.id;
  }

  /** The resource registered at this location of a filesystem. */
  async findAt(file: StoredFile): Promise<ResourceRow | undefined> {
    let q = this.db.selectFrom('resources').selectAll().where('location', '=', file.location);
    q = file.storage === null ? q.where('storage_location', 'is', null) : q.where('storage_location', '=', file.storage);
    return q.orderBy('id').executeTakeFirst();
  }

  /** True when some resource's current file is this one. */
  async usesFile(file: StoredFile): Promise<boolean> {
    let q = this.db.selectFrom('resources').select('id').where('location', '=', file.location);
    q = file.storage === null ? q.where('storage_location', 'is', null) : q.where('storage_location', '=', file.storage);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  }

  async insert(row: Insertable<ResourceTable>): Promise<number> {
    const r = await this.db.insertInto('resources').values(row).returning('id').executeTakeFirstOrThrow();
    return r.id;
  }

  /** Sets columns as given, without touching updated_at (the caller decides). */
  async patch(id: number, cols: Updateable<ResourceTable>): Promise<void> {
    await this.db.updateTable('resources').set(cols).where('id', '=', id).execute();
  }

  /** Videos after `afterId` in id order (the thumbnail backfill walks them in batches). */
  async videosAfter(afterId: number, limit: number): Promise<{ id: number; content_type: string }[]> {
    return this.db
      .selectFrom('resources')
      .select(['id', 'content_type'])
      .where('content_type', 'like', 'video/%')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}

// Clip rows: lookups, the filtered list (one indexed statement plus one for the page's tags),
// and the hidden-tag counts; no rules here.
import type Database from 'better-sqlite3';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { CompiledOnce } from '../../core/db/compiled-once.js';
import type { ItemOutcome } from '../../core/db/group-commit.js';
import type { Executor } from '../../core/db/repository.js';
import { escapeLike } from '../../core/db/values.js';
import { ClipStoreRepository } from '../schema/base-repository.js';
import type { ClipDatabase } from '../schema/database.js';
import { carriesSubtree, idList, isLive, TRIGRAM, trigramPhrase } from '../schema/fragments.js';
import { inSubtree, type TagRef } from '../tags/names.js';
import { BlobJournalRepository, type JournalEntry } from '../storage/journal.repository.js';

export interface ClipRow {
  id: number;
  filename: string;
  content_type: string;
  size: number;
  content_hash: string;
  is_archived: number;
  expires_at: string | null;
  created_at: string;
}

const COLUMNS = sql.raw('c.id, c.filename, c.content_type, c.size, c.content_hash, c.is_archived, c.expires_at, c.created_at');

export interface ClipFilter {
  now: string;
  /** A tag-scoped caller's scope: only clips under it. */
  scope?: TagRef | null;
  /** Each entry: the clip carries this tag or a descendant (AND across entries). */
  subtrees?: readonly TagRef[];
  /** The clip carries exactly this tag. */
  exactTag?: number;
  /** Matches nothing (an unknown or out-of-scope tag was asked for). */
  none?: boolean;
  contentType?: string;
  archived?: boolean;
  search?: string;
  /** Clips carrying any of these tags are left out. */
  hidden?: readonly number[];
}

/** Every column of a new clip row (the id is assigned). */
export type NewClipRow = Omit<ClipRow, 'id'> & { text_content: string | null };

/** The row a clip inserted from `row` reads back as (the search excerpt is not a listed column). */
export function insertedRow(id: number, row: NewClipRow): ClipRow {
  const { text_content: _excerpt, ...columns } = row;
  void _excerpt;
  return { id, ...columns };
}

// Each upload inserts one row: the statement is compiled once.
const insertClip = new CompiledOnce(
  8,
  (db: Executor<ClipDatabase>, filename: string, content_type: string, size: number, content_hash: string, text_content: string | null, is_archived: number, expires_at: string | null, created_at: string) =>
    db.insertInto('clips').values({ filename, content_type, size, content_hash, text_content, is_archived, expires_at, created_at }).returning('id'),
);

// Every deduplicating upload looks its content up first.
const liveByHash = new CompiledOnce(
  2,
  (db: Executor<ClipDatabase>, hash: string, now: string) =>
    db
      .selectFrom('clips as c')
      .select(['c.id', 'c.filename', 'c.content_type', 'c.size', 'c.content_hash', 'c.is_archived', 'c.expires_at', 'c.created_at'])
      .where('c.content_hash', '=', hash)
      .where(isLive(sql`c.expires_at`, now))
      .orderBy('c.id')
      .limit(1),
);

const clipId = sql`c.id`;

/** Up to this many trigram candidates, a search reads them instead of walking every clip. */
const RARE_SEARCH = 5000;

/**
 * The search condition: LIKE decides exactly; with `indexed`, only the trigram index's
 * candidates are tried (worth it when they are few: see ClipRepository.searchIsRare).
 */
function searchCondition(term: string, indexed: boolean): RawBuilder<unknown> {
  // LIKE folds ASCII case only, which is the documented search semantics; the term is literal.
  // The trigram index folds case more widely, so its candidates include every LIKE match.
  const pattern = `%${escapeLike(term)}%`;
  const like = sql`(c.filename LIKE ${pattern} ESCAPE '\\' OR c.text_content LIKE ${pattern} ESCAPE '\\')`;
  if (!indexed) return like;
  return sql`c.id IN (SELECT rowid FROM clip_search WHERE clip_search MATCH ${trigramPhrase(term)}) AND ${like}`;
}

/** The filter's own conditions, without liveness; `form` picks the subtree test (see carriesSubtree). */
function filterConditions(f: ClipFilter, form: 'probe' | 'set', indexedSearch = false): RawBuilder<unknown>[] {
  const all: RawBuilder<unknown>[] = [];
  if (f.none) all.push(sql`0`);
  if (f.scope) all.push(carriesSubtree(clipId, f.scope, form));
  for (const t of f.subtrees ?? []) all.push(carriesSubtree(clipId, t, form));
  if (f.exactTag !== undefined) {
    all.push(
      form === 'set'
        ? sql`c.id IN (SELECT et.clip_id FROM clip_tags et WHERE et.tag_id = ${f.exactTag})`
        : sql`EXISTS (SELECT 1 FROM clip_tags et WHERE et.clip_id = c.id AND et.tag_id = ${f.exactTag})`,
    );
  }
  if (f.contentType !== undefined) all.push(sql`c.content_type = ${f.contentType.toLowerCase()}`);
  if (f.archived !== undefined) all.push(sql`c.is_archived = ${f.archived ? 1 : 0}`);
  if (f.search) all.push(searchCondition(f.search, indexedSearch));
  if (f.hidden && f.hidden.length > 0) {
    all.push(
      form === 'set'
        ? sql`c.id NOT IN (SELECT ht.clip_id FROM clip_tags ht WHERE ht.tag_id IN ${idList(f.hidden)})`
        : sql`NOT EXISTS (SELECT 1 FROM clip_tags ht WHERE ht.clip_id = c.id AND ht.tag_id IN ${idList(f.hidden)})`,
    );
  }
  return all;
}

/** A tag condition as a set of clip ids: a subtree (clip_tree) or one exact tag (clip_tags). */
interface TagSet {
  table: 'clip_tree' | 'clip_tags';
  tagId: number;
}

/** The filter's tag conditions; a scope adds nothing when a subtree asked for lies inside it. */
function tagSets(f: ClipFilter): TagSet[] {
  const subtrees = f.subtrees ?? [];
  const scope = f.scope && !subtrees.some((t) => inSubtree(t.name, f.scope!.name)) ? [f.scope] : [];
  const sets: TagSet[] = [...scope, ...subtrees].map((t) => ({ table: 'clip_tree', tagId: t.id }));
  if (f.exactTag !== undefined) sets.push({ table: 'clip_tags', tagId: f.exactTag });
  return sets;
}

const setSelect = (s: TagSet) => sql`SELECT clip_id FROM ${sql.table(s.table)} WHERE tag_id = ${s.tagId}`;
const inSet = (s: TagSet, id: RawBuilder<unknown>) => sql`EXISTS (SELECT 1 FROM ${sql.table(s.table)} WHERE tag_id = ${s.tagId} AND clip_id = ${id})`;
/** The size of one set, kept in tag_stats (migration 002). */
const setSize = (s: TagSet) => sql`(SELECT COALESCE(MAX(${sql.ref(s.table === 'clip_tree' ? 'tree' : 'links')}), 0) FROM tag_stats WHERE tag_id = ${s.tagId})`;

/**
 * Clips (live or not) a filter of tag conditions and hidden tags only matches, without
 * visiting clip rows: one set's size is read from tag_stats, several are intersected, and the
 * clips of the matched sets that carry a hidden tag are taken away (they are few next to the
 * matches, and each is probed). Null when the filter has other conditions.
 */
function tagOnlyCount(f: ClipFilter): RawBuilder<unknown> | null {
  if (f.none || f.contentType !== undefined || f.archived !== undefined || f.search) return null;
  const sets = tagSets(f);
  const hidden = f.hidden ?? [];
  if (sets.length === 0 && hidden.length === 0) return null;
  const matched =
    sets.length === 0 ? sql`(SELECT COUNT(*) FROM clips)` : sets.length === 1 ? setSize(sets[0]) : sql`(SELECT COUNT(*) FROM (${sql.join(sets.map(setSelect), sql` INTERSECT `)}))`;
  if (hidden.length === 0) return matched;
  const carrying = sql`SELECT DISTINCT clip_id FROM clip_tags WHERE tag_id IN ${idList(hidden)}`;
  const withHidden =
    sets.length === 0
      ? sql`(SELECT COUNT(*) FROM (${carrying}))`
      : sql`(SELECT COUNT(*) FROM (${carrying}) h WHERE ${sql.join(sets.map((s) => inSet(s, sql`h.clip_id`)), sql` AND `)})`;
  return sql`(${matched} - ${withHidden})`;
}

const where = (parts: RawBuilder<unknown>[]) => (parts.length > 0 ? sql`WHERE ${sql.join(parts, sql` AND `)}` : sql``);

/** The filter over live clips. */
function conditions(f: ClipFilter, form: 'probe' | 'set' = 'probe', indexedSearch = false): RawBuilder<SqlBool> {
  return sql<SqlBool>`${sql.join([isLive(sql`c.expires_at`, f.now), ...filterConditions(f, form, indexedSearch)], sql` AND `)}`;
}

export class ClipRepository extends ClipStoreRepository {
  /** A journaled upload's bytes go into the blob journal in its row's transaction (storage/journal.ts). */
  private get journal(): BlobJournalRepository {
    return new BlobJournalRepository(this.db);
  }

  /**
   * A search term the trigram index finds in few clips: reading those candidates then beats
   * walking the clips with LIKE (which, for a common term, finds a page of matches at once).
   * The candidates are counted only up to the limit, so a common term costs little to rule out.
   * Terms under three characters have no trigram.
   */
  async searchIsRare(term: string | undefined): Promise<boolean> {
    if ([...(term ?? '')].length < TRIGRAM) return false;
    const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM (SELECT rowid FROM clip_search
      WHERE clip_search MATCH ${trigramPhrase(term!)} LIMIT ${RARE_SEARCH + 1})`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0) <= RARE_SEARCH;
  }

  async insert(row: NewClipRow): Promise<number> {
    const r = await insertClip.run(this.db, row.filename, row.content_type, row.size, row.content_hash, row.text_content, row.is_archived, row.expires_at, row.created_at);
    return r.rows[0].id;
  }

  /**
   * An upload's rows as one synchronous transaction on the raw connection `conn` (the one behind
   * this repository's Kysely instance): with `dedup`, the oldest live clip with this content if
   * there is one, else the inserted row; `journal` goes into the blob journal in the same
   * transaction. The same statements as `findLiveByHash`, `insert` and BlobJournalRepository's
   * `add`, without a promise hop per statement. The caller must hold the connection exclusively (Kysely's
   * connection lock, outside any transaction): nothing else can run between these statements.
   */
  insertOrFindSync(conn: Database.Database, row: NewClipRow, dedup: boolean, journal?: JournalEntry): { row: ClipRow; created: boolean } {
    return conn.transaction(() => {
      if (journal) this.journal.addSync(conn, journal);
      const existing = dedup ? liveByHash.runSync(conn, this.db, row.content_hash, row.created_at)[0] : undefined;
      if (existing) return { row: existing, created: false };
      const [{ id }] = insertClip.runSync(conn, this.db, row.filename, row.content_type, row.size, row.content_hash, row.text_content, row.is_archived, row.expires_at, row.created_at);
      return { row: insertedRow(id, row), created: true };
    })();
  }

  /**
   * Several uploads' rows in one transaction (a group commit, core/db/group-commit.ts), each as
   * `insertOrFindSync` makes it and inside its own savepoint: a row that fails is rolled back
   * alone and answered with its error, the others commit. Same exclusivity rule.
   */
  insertOrFindManySync(conn: Database.Database, items: readonly { row: NewClipRow; dedup: boolean; journal?: JournalEntry }[]): ItemOutcome<{ row: ClipRow; created: boolean }>[] {
    return conn.transaction(() =>
      items.map(({ row, dedup, journal }): ItemOutcome<{ row: ClipRow; created: boolean }> => {
        try {
          // Nested in the batch's transaction, better-sqlite3 runs this one as a savepoint.
          return { ok: true, value: this.insertOrFindSync(conn, row, dedup, journal) };
        } catch (error) {
          return { ok: false, error };
        }
      }),
    )();
  }

  /**
   * Repoints a clip at other bytes in one transaction; returns the hash it had before, or
   * undefined when the clip is gone. `excerpt` derives the search text from the stored type.
   */
  replaceContent(
    id: number,
    content: { hash: string; size: number; head: Buffer },
    excerpt: (contentType: string, head: Buffer) => string | null,
  ): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('clips').select(['content_hash', 'content_type']).where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      await trx
        .updateTable('clips')
        .set({ content_hash: content.hash, size: content.size, text_content: excerpt(row.content_type, content.head) })
        .where('id', '=', id)
        .execute();
      return row.content_hash;
    });
  }

  async list(f: ClipFilter, page: { limit: number; offset: number }): Promise<ClipRow[]> {
    const r = await sql<ClipRow>`SELECT ${COLUMNS} FROM clips c WHERE ${conditions(f, 'probe', await this.searchIsRare(f.search))}
      ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`.execute(this.db);
    return r.rows;
  }

  /**
   * Matches among all clips minus matches among expired ones: the second part reads only the
   * (small) expiry index, and the first can be answered from an index alone when the filter
   * allows (no filter, archived only, content type only) instead of visiting every row.
   */
  async count(f: ClipFilter): Promise<number> {
    const parts = filterConditions(f, 'set', await this.searchIsRare(f.search));
    // Expired clips are few: walk them and probe each condition rather than gather the sets.
    const expired = [sql`c.expires_at IS NOT NULL`, sql`c.expires_at <= ${f.now}`, ...filterConditions(f, 'probe')];
    const r = await sql<{ n: number }>`SELECT
      ${tagOnlyCount(f) ?? sql`(SELECT COUNT(*) FROM clips c ${where(parts)})`}
      - (SELECT COUNT(*) FROM clips c ${where(expired)}) AS n`.execute(this.db);
    return Number(r.rows[0].n);
  }

  /** Among the clips `f` matches, how many carry a tag of `hidden`, and which of those tags. */
  async hiddenInfo(f: ClipFilter, hidden: readonly number[]): Promise<{ count: number; tags: string[] }> {
    const where = conditions(f, 'set', await this.searchIsRare(f.search));
    const inHidden = sql`IN ${idList(hidden)}`;
    const count = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM clips c WHERE ${where}
      AND EXISTS (SELECT 1 FROM clip_tags hx WHERE hx.clip_id = c.id AND hx.tag_id ${inHidden})`.execute(this.db);
    const names = await sql<{ name: string }>`SELECT DISTINCT t.name FROM clips c
      JOIN clip_tags hx ON hx.clip_id = c.id JOIN tags t ON t.id = hx.tag_id
      WHERE ${where} AND hx.tag_id ${inHidden} ORDER BY t.name`.execute(this.db);
    return { count: Number(count.rows[0].n), tags: names.rows.map((r) => r.name) };
  }

  async findLive(id: number, now: string): Promise<ClipRow | undefined> {
    const r = await sql<ClipRow>`SELECT ${COLUMNS} FROM clips c WHERE c.id = ${id} AND ${isLive(sql`c.expires_at`, now)}`.execute(this.db);
    return r.rows[0];
  }

  /** Live clips among `ids`, in id order. */
  async findLiveMany(ids: readonly number[], now: string): Promise<ClipRow[]> {
    if (ids.length === 0) return [];
    const r = await sql<ClipRow>`SELECT ${COLUMNS} FROM clips c
      WHERE c.id IN ${idList(ids)} AND ${isLive(sql`c.expires_at`, now)} ORDER BY c.id`.execute(this.db);
    return r.rows;
  }

  /** The oldest live clip with this content. */
  async findLiveByHash(hash: string, now: string): Promise<ClipRow | undefined> {
    return (await liveByHash.run(this.db, hash, now)).rows[0];
  }

  /** How many of `ids` are in the scope (carry its tag or a descendant). */
  async countInScope(ids: readonly number[], scope: TagRef): Promise<number> {
    const r = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM clips c
      WHERE c.id IN ${idList(ids)} AND ${carriesSubtree(clipId, scope)}`.execute(this.db);
    return Number(r.rows[0].n);
  }

  /** Which of these hashes some row (live or not) refers to: one statement per batch. */
  async referencedAmong(hashes: readonly string[]): Promise<Set<string>> {
    if (hashes.length === 0) return new Set();
    const rows = await this.db.selectFrom('clips').select('content_hash').distinct().where('content_hash', 'in', hashes).execute();
    return new Set(rows.map((r) => r.content_hash));
  }

  /** Up to `limit` distinct content hashes in hash order, after `after` (null: from the first); keyset pages over the hash index. */
  async contentHashesAfter(after: string | null, limit: number): Promise<string[]> {
    let q = this.db.selectFrom('clips').select('content_hash').distinct();
    if (after !== null) q = q.where('content_hash', '>', after);
    const rows = await q.orderBy('content_hash').limit(limit).execute();
    return rows.map((r) => r.content_hash);
  }

  /** Any row (live or not) still refers to these bytes. */
  async referenced(hash: string): Promise<boolean> {
    const r = await this.db.selectFrom('clips').select('id').where('content_hash', '=', hash).limit(1).executeTakeFirst();
    return r !== undefined;
  }

  /** Tags of each clip, sorted by name. */
  async tagLinks(clipIds: readonly number[]): Promise<{ clip_id: number; id: number; name: string; color: string }[]> {
    if (clipIds.length === 0) return [];
    const r = await sql<{ clip_id: number; id: number; name: string; color: string }>`
      SELECT ct.clip_id, t.id, t.name, t.color FROM clip_tags ct JOIN tags t ON t.id = ct.tag_id
      WHERE ct.clip_id IN ${idList(clipIds)} ORDER BY t.name`.execute(this.db);
    return r.rows;
  }

  async rename(id: number, filename: string, contentType?: string): Promise<void> {
    await this.db
      .updateTable('clips')
      .set({ filename, ...(contentType !== undefined ? { content_type: contentType } : {}) })
      .where('id', '=', id)
      .execute();
  }

  /** Sets is_archived on the live clips among `ids`; returns the ids that changed. */
  async setArchived(ids: readonly number[], archived: boolean, now: string): Promise<number[]> {
    const changed = await this.db
      .updateTable('clips')
      .set({ is_archived: archived ? 1 : 0 })
      .where(sql<boolean>`id IN ${idList(ids)}`)
      .where('is_archived', '=', archived ? 0 : 1)
      .where(isLive(sql`expires_at`, now))
      .returning('id')
      .execute();
    return changed.map((r) => r.id);
  }

  /** Sets or clears the expiry of the live clips among `ids`. */
  async setExpiry(ids: readonly number[], expiresAt: string | null, now: string): Promise<void> {
    await this.db
      .updateTable('clips')
      .set({ expires_at: expiresAt })
      .where(sql<boolean>`id IN ${idList(ids)}`)
      .where(isLive(sql`expires_at`, now))
      .execute();
  }

  /** Moves a clip in the list order (a merged duplicate goes to the top). */
  async setCreatedAt(id: number, at: string): Promise<void> {
    await this.db.updateTable('clips').set({ created_at: at }).where('id', '=', id).execute();
  }

  /** Deletes the listed clips (links and metadata cascade); returns what went with its bytes. */
  async deleteMany(ids: readonly number[]): Promise<{ id: number; content_hash: string }[]> {
    if (ids.length === 0) return [];
    return this.db.deleteFrom('clips').where(sql<boolean>`id IN ${idList(ids)}`).returning(['id', 'content_hash']).execute();
  }

  /** Clips whose expiry has passed at `now`. */
  async expiredIds(now: string): Promise<number[]> {
    const rows = await this.db.selectFrom('clips').select('id').where('expires_at', 'is not', null).where('expires_at', '<=', now).execute();
    return rows.map((r) => r.id);
  }
}

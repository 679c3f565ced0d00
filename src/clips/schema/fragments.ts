// SQL fragments the clip repositories share: id lists, tag subtrees and clip liveness.
// Subtrees of tags are name ranges (see descendantRange), so the unique index on tags.name
// answers them; which clips lie under a tag is kept in clip_tree.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { descendantRange, type TagRef } from '../tags/names.js';

/** A parenthesised list of integers for IN, as one bound JSON parameter (no variable limit). */
export function idList(ids: readonly number[]): RawBuilder<unknown> {
  return sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;
}

/** Ids of the tag and its descendants, as a subquery. */
export function subtreeIds(tag: TagRef): RawBuilder<unknown> {
  const [low, high] = descendantRange(tag.name);
  return sql`(SELECT id FROM tags WHERE id = ${tag.id} OR (name >= ${low} AND name < ${high}))`;
}

/**
 * The clip `clipId` (a column reference or value) carries the tag or one of its descendants,
 * read from clip_tree (migration 002). 'probe' checks each candidate clip (cheapest when
 * walking clips in list order under a LIMIT); 'set' reads the tag's clip ids once.
 */
export function carriesSubtree(clipId: RawBuilder<unknown>, tag: TagRef, form: 'probe' | 'set' = 'probe'): RawBuilder<SqlBool> {
  if (form === 'set') return sql<SqlBool>`${clipId} IN (SELECT st.clip_id FROM clip_tree st WHERE st.tag_id = ${tag.id})`;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM clip_tree st WHERE st.tag_id = ${tag.id} AND st.clip_id = ${clipId})`;
}

/** FTS5 query text for a literal substring of the trigram index (quotes doubled). */
export function trigramPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** The trigram index needs three characters to narrow anything down. */
export const TRIGRAM = 3;

/** Clip liveness: not expired at `now` (stored ISO text compares as instants). */
export function isLive(expiresAt: RawBuilder<unknown>, now: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${expiresAt} IS NULL OR ${expiresAt} > ${now})`;
}

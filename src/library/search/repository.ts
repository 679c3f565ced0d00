// Global search statements: one per searched type, matched through the full-text index when
// there is one, otherwise with case-insensitive LIKE patterns.
import { CompiledQuery } from 'kysely';
import { profileGroups, type FullTextTerms, type SqlRow } from '../../core/db/dialect/index.js';
import { Repository } from '../../core/db/repository.js';
import { SqlText, type Statement } from '../../core/db/sql-text.js';
import type { Database } from '../schema/database.js';
import { RANKED_TABLES } from '../schema/migrations/012-fts-postings.js';

export interface SearchRequest {
  /** The table searched (its rows have id, name, description). */
  table: string;
  /** Extra columns to read (`t.<column>`). */
  extra: readonly string[];
  /** The sanitised search text and its words. */
  term: string;
  words: readonly string[];
  /** Full text: prefixes of the words, or the words themselves; LIKE: one of the patterns. */
  match: { fullText: true; prefix: boolean } | { fullText: false; columns: readonly string[]; patterns: readonly string[] };
  /** Only rows in this group's subtree (their own id for groups, their owner otherwise). */
  scope: { column: string; groupId: number } | null;
  limit: number;
}

export class SearchRepository extends Repository<Database> {
  /** Matching rows, best first for full text, by id otherwise. */
  async search(r: SearchRequest): Promise<SqlRow[]> {
    const b = new SqlText(this.dialect);
    const cols = ['t.id', 't.name', 't.description', ...r.extra.map((c) => `t.${c}`)].join(', ');
    const scope = r.scope
      ? ` AND t.${r.scope.column} IN (WITH RECURSIVE st(id, depth) AS (SELECT id, 0 FROM groups WHERE id = ${b.p(r.scope.groupId)} UNION SELECT g.id, st.depth + 1 FROM groups g JOIN st ON g.owner_id = st.id WHERE st.depth < 50) SELECT id FROM st)`
      : '';
    let text: string;
    if (r.match.fullText) {
      const terms = { term: r.term, words: r.words };
      const groups = r.scope || !RANKED_TABLES.includes(r.table) ? null : await this.profileGroups(r.table, terms, r.match.prefix);
      const top = groups ? { groups, limit: r.limit } : undefined;
      const fts = this.dialect.fullText.search(b, r.table, 't', terms, r.match.prefix, top);
      text = `SELECT ${cols} FROM ${fts.from} WHERE ${fts.where}${scope} ORDER BY ${fts.order} LIMIT ${b.p(r.limit)}`;
    } else {
      const patterns = r.match.patterns;
      const ors = r.match.columns.flatMap((c) => patterns.map((p) => this.dialect.ilike(b, `t.${c}`, p.toLowerCase())));
      text = `SELECT ${cols} FROM ${r.table} t WHERE (${ors.join(' OR ')})${scope} ORDER BY t.id LIMIT ${b.p(r.limit)}`;
    }
    return this.run(b.finish(r.table, text));
  }

  /**
   * A one-word search's posting profiles in groups of equal relevance (SQLite, migration 014),
   * so the page reads only its best rows; null when every match must be ranked: no postings
   * path, too many profiles, near ties, or a prefix that other words of the table start with.
   */
  async profileGroups(table: string, terms: FullTextTerms, prefix: boolean): Promise<number[][] | null> {
    const ft = this.dialect.fullText;
    const b = new SqlText(this.dialect);
    const lookup = ft.rankProfiles(b, table, terms);
    if (lookup === null) return null;
    if (prefix) {
      const nb = new SqlText(this.dialect);
      const [row] = await this.run(nb.finish('next term', ft.nextTerm(nb, table, terms)!));
      const next = row?.next;
      if (typeof next === 'string' && next.startsWith(terms.term.trim().toLowerCase())) return null;
    }
    return profileGroups(await this.run(b.finish('search profiles', lookup)));
  }

  private async run(st: Statement): Promise<SqlRow[]> {
    return (await this.db.executeQuery<SqlRow>(CompiledQuery.raw(st.sql, st.params))).rows;
  }
}

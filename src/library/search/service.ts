// Global search (companion §8): every searchable type, matched with the full-text index when it
// is available (FTS5 / tsvector), otherwise with case-insensitive LIKE and a fixed score table.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Library } from '../context.js';
import type { Principal } from '../auth/principal.js';
import { Binds, finish } from '../mrql/sql.js';

export const SEARCH_TYPES = ['resource', 'note', 'group', 'tag', 'category', 'query', 'relationType', 'noteType', 'resourceCategory', 'mrqlQuery'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

const TABLES: Record<SearchType, string> = {
  resource: 'resources',
  note: 'notes',
  group: 'groups',
  tag: 'tags',
  category: 'categories',
  query: 'queries',
  relationType: 'group_relation_types',
  noteType: 'note_types',
  resourceCategory: 'resource_categories',
  mrqlQuery: 'saved_mrql_queries',
};

const URLS: Record<SearchType, (id: number) => string> = {
  resource: (id) => `/resource?id=${id}`,
  note: (id) => `/note?id=${id}`,
  group: (id) => `/group?id=${id}`,
  tag: (id) => `/tag?id=${id}`,
  category: (id) => `/category?id=${id}`,
  query: (id) => `/query?id=${id}`,
  relationType: (id) => `/relationType?id=${id}`,
  noteType: (id) => `/noteType?id=${id}`,
  resourceCategory: (id) => `/resourceCategory?id=${id}`,
  mrqlQuery: (id) => `/mrql?saved=${id}`,
};

export interface SearchResult {
  id: number;
  type: SearchType;
  name: string;
  description: string;
  score: number;
  url: string;
  extra?: Record<string, unknown>;
}

export type Mode = { kind: 'exact' | 'prefix' } | { kind: 'fuzzy'; distance: number };

/** Query parsing of §8 step 3: mode and sanitised term. */
export function parseSearch(raw: string): { mode: Mode; term: string; words: string[] } {
  let q = raw.trim();
  let mode: Mode | null = null;
  if (q.length >= 2 && q.startsWith('"') && q.endsWith('"')) {
    mode = { kind: 'exact' };
    q = q.slice(1, -1);
  } else if (q.startsWith('=')) {
    mode = { kind: 'exact' };
    q = q.slice(1);
  } else if (q.startsWith('~')) {
    const m = /^~([1-3])?(.*)$/s.exec(q)!;
    mode = { kind: 'fuzzy', distance: m[1] ? Number(m[1]) : 1 };
    q = m[2];
  } else if (q.endsWith('*')) {
    mode = { kind: 'prefix' };
    q = q.slice(0, -1);
  }
  const term = q
    .replace(/-/g, ' ')
    .replace(/[^\p{L}\p{N}\s_.]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!mode) mode = { kind: term.length >= 3 ? 'prefix' : 'exact' };
  const words = term.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return { mode, term, words };
}

function shorten(text: string): string {
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}

const escLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export class SearchService {
  private readonly db: Kysely<unknown>;

  constructor(private readonly lib: Library) {
    this.db = lib.db as unknown as Kysely<unknown>;
  }

  async search(principal: Principal, raw: string, limitIn: number | undefined, typesParam: string | undefined) {
    const limit = !limitIn || limitIn <= 0 ? 20 : Math.min(limitIn, 50);
    const query = raw.trim();
    if (query === '') return { query: '', total: 0, results: [] as SearchResult[] };
    const requested = (typesParam ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s): s is SearchType => (SEARCH_TYPES as readonly string[]).includes(s));
    const types = requested.length ? [...new Set(requested)] : [...SEARCH_TYPES];
    const parsed = parseSearch(query);
    if (parsed.term === '') return { query, total: 0, results: [] as SearchResult[] };
    const ceiling = limit;
    const scope = !principal.superUser && principal.scopeGroupId !== null ? principal.scopeGroupId : null;
    const all: SearchResult[] = [];
    for (const type of types) all.push(...(await this.searchType(type, parsed, ceiling, scope)));
    all.sort((a, b) => b.score - a.score);
    const kept = all.slice(0, ceiling);
    const total = kept.length;
    return { query, total, ...(total >= ceiling ? { totalCapped: true } : {}), results: kept.slice(0, limit) };
  }

  private scopeCond(b: Binds, type: SearchType, scope: number | null): string | null {
    if (scope === null || !['resource', 'note', 'group'].includes(type)) return null;
    const col = type === 'group' ? 't.id' : 't.owner_id';
    return `${col} IN (WITH RECURSIVE st(id, depth) AS (SELECT id, 0 FROM groups WHERE id = ${b.p(scope)} UNION SELECT g.id, st.depth + 1 FROM groups g JOIN st ON g.owner_id = st.id WHERE st.depth < 50) SELECT id FROM st)`;
  }

  private async searchType(type: SearchType, parsed: ReturnType<typeof parseSearch>, ceiling: number, scope: number | null): Promise<SearchResult[]> {
    const table = TABLES[type];
    const b = new Binds(this.lib.dialect.kind);
    const pg = this.lib.dialect.kind === 'postgres';
    const cols = `t.id, t.name, t.description${type === 'resource' ? ', t.content_type, t.original_name' : ''}`;
    const scopeCond = this.scopeCond(b, type, scope);
    const useFts = this.lib.config.fts && type !== 'mrqlQuery' && parsed.mode.kind !== 'fuzzy' && parsed.words.length > 0;
    let text: string;
    let positional = false;
    if (useFts) {
      positional = true;
      const where = scopeCond ? ` AND ${scopeCond}` : '';
      if (!pg) {
        const match = parsed.words.map((w) => `"${w}"${parsed.mode.kind === 'prefix' ? '*' : ''}`).join(' ');
        text = `SELECT ${cols} FROM ${table}_fts f JOIN ${table} t ON t.id = f.rowid WHERE ${table}_fts MATCH ${b.p(match)}${where} ORDER BY f.rank LIMIT ${b.p(ceiling)}`;
      } else if (parsed.mode.kind === 'prefix') {
        // Each word's english lexeme as a prefix, so "lighthouse" finds the stem "lighthous".
        // English lexemes as prefixes ("lighthouse" → lighthous:*), or the plain words (stems like
        // "many" → "mani" would miss "many00"; stop words have no lexeme at all).
        const prefixes = (config: string) =>
          `(SELECT to_tsquery('simple', string_agg(quote_literal(lexeme) || ':*', ' & ')) FROM unnest(to_tsvector('${config}', ${b.t(parsed.words.join(' '))})))`;
        const tsq = `(SELECT COALESCE(${prefixes('english')} || ${prefixes('simple')}, ${prefixes('simple')}))`;
        text = `SELECT ${cols} FROM ${table} t, ${tsq} AS q(tsq) WHERE t.search_vector @@ q.tsq${where} ORDER BY ts_rank(t.search_vector, q.tsq) DESC LIMIT ${b.p(ceiling)}`;
      } else {
        text = `SELECT ${cols} FROM ${table} t WHERE t.search_vector @@ plainto_tsquery('english', ${b.t(parsed.term)})${where} ORDER BY ts_rank(t.search_vector, plainto_tsquery('english', ${b.t(parsed.term)})) DESC LIMIT ${b.p(ceiling)}`;
      }
    } else {
      const fields = ['t.name', 't.description', ...(type === 'resource' ? ['t.original_name'] : [])];
      const patterns = [`%${escLike(parsed.term)}%`];
      if (parsed.mode.kind === 'fuzzy') {
        const chars = [...parsed.term].slice(0, 64);
        for (let i = 0; i < chars.length; i++) patterns.push(`%${chars.map((c, j) => (j === i ? '_' : escLike(c))).join('')}%`);
      }
      const ors = fields.flatMap((f) =>
        patterns.map((p) => (pg ? `${f} ILIKE ${b.t(p)} ESCAPE '\\'` : `lower(${f}) LIKE ${b.p(p.toLowerCase())} ESCAPE '\\'`)),
      );
      text = `SELECT ${cols} FROM ${table} t WHERE (${ors.join(' OR ')})${scopeCond ? ` AND ${scopeCond}` : ''} ORDER BY t.id LIMIT ${b.p(ceiling)}`;
    }
    const st = finish(type, text, b);
    const rows = (await this.db.executeQuery(CompiledQuery.raw(st.sql, st.params))).rows as Record<string, unknown>[];
    const term = parsed.term.toLowerCase();
    return rows.map((r, i) => {
      const id = Number(r.id);
      const name = String(r.name ?? '');
      const description = String(r.description ?? '');
      let score: number;
      if (positional) score = Math.max(1, 100 - i);
      else {
        const n = name.toLowerCase();
        const orig = String(r.original_name ?? '').toLowerCase();
        if (n === term) score = 100;
        else if (type === 'resource' && orig === term) score = 90;
        else if (n.startsWith(term)) score = 80;
        else if (n.includes(term)) score = 60;
        else if (type === 'resource' && orig.includes(term)) score = 55;
        else if (description.toLowerCase().includes(term)) score = 40;
        else score = 20;
      }
      const out: SearchResult = { id, type, name, description: shorten(description), score, url: URLS[type](id) };
      if (type === 'resource') out.extra = { contentType: r.content_type };
      return out;
    });
  }
}

// Global search (companion §8): every searchable type, matched with the full-text index when it
// is available (FTS5 / tsvector), otherwise with case-insensitive LIKE and a fixed score table.
import type { Principal } from '../auth/principal.js';
import { escapeLike } from '../../core/db/values.js';
import type { SearchRepository, SearchRequest } from './repository.js';

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

export class SearchService {
  constructor(
    private readonly repo: SearchRepository,
    /** Whether the full-text index exists (the server was not started with -skip-fts). */
    private readonly fts: boolean,
  ) {}

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

  private async searchType(type: SearchType, parsed: ReturnType<typeof parseSearch>, ceiling: number, scope: number | null): Promise<SearchResult[]> {
    const useFts = this.fts && type !== 'mrqlQuery' && parsed.mode.kind !== 'fuzzy' && parsed.words.length > 0;
    let match: SearchRequest['match'];
    if (useFts) match = { fullText: true, prefix: parsed.mode.kind === 'prefix' };
    else {
      const patterns = [`%${escapeLike(parsed.term)}%`];
      if (parsed.mode.kind === 'fuzzy') {
        // One wildcard character at each position: every text within one substitution.
        const chars = [...parsed.term].slice(0, 64);
        for (let i = 0; i < chars.length; i++) patterns.push(`%${chars.map((c, j) => (j === i ? '_' : escapeLike(c))).join('')}%`);
      }
      match = { fullText: false, columns: ['name', 'description', ...(type === 'resource' ? ['original_name'] : [])], patterns };
    }
    const scoped = scope !== null && ['resource', 'note', 'group'].includes(type);
    const rows = await this.repo.search({
      table: TABLES[type],
      extra: type === 'resource' ? ['content_type', 'original_name'] : [],
      term: parsed.term,
      words: parsed.words,
      match,
      scope: scoped ? { column: type === 'group' ? 'id' : 'owner_id', groupId: scope } : null,
      limit: ceiling,
    });
    const positional = useFts;
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

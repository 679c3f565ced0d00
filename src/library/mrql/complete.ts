// Context-aware completion (mrql.md §17): the text before the cursor is lexed and the last
// token decides the suggestions; the client filters by the word being typed.
import { lex, MAX_QUERY_BYTES, MAX_TOKENS, toBytes, type Token } from './lexer.js';
import { JUNCTIONS, type Entity } from './fields.js';

export interface Suggestion {
  value: string;
  type: 'field' | 'operator' | 'keyword' | 'entity_type' | 'value' | 'function' | 'rel_date';
  label?: string;
}

const s = (value: string, type: Suggestion['type'], label?: string): Suggestion => (label ? { value, type, label } : { value, type });

const SPECIFIC: Record<Entity, string[]> = {
  resource: ['groups', 'group', 'owner', 'category', 'contentType', 'fileSize', 'width', 'height', 'originalName', 'originalLocation', 'hash', 'notes', 'similarImages'],
  note: ['groups', 'group', 'owner', 'noteType', 'startDate', 'endDate', 'shared', 'resources'],
  group: ['category', 'url', 'parent', 'children', 'resources', 'notes'],
};
const SORTABLE: Record<Entity, string[]> = {
  resource: ['category', 'contentType', 'fileSize', 'width', 'height', 'originalName', 'originalLocation', 'hash'],
  note: ['noteType', 'startDate', 'endDate', 'shared'],
  group: ['category', 'url'],
};
const COMMON = ['id', 'name', 'description', 'created', 'updated', 'tags', 'guid'];

function counts(entity: Entity | null): string[] {
  if (!entity) return ['tags.count'];
  const rels = Object.keys(JUNCTIONS[entity]);
  if (entity === 'group') rels.push('children');
  return rels.map((r) => `${r}.count`);
}

function fieldList(entity: Entity | null): Suggestion[] {
  const out = [s('type', 'field', 'entity type filter'), ...COMMON.map((f) => s(f, 'field'))];
  if (entity) out.push(...SPECIFIC[entity].map((f) => s(f, 'field')));
  out.push(...counts(entity).map((f) => s(f, 'field', 'relation count')));
  if (entity) out.push(s('ancestors.name', 'field', 'any ancestor group'), s('descendants.name', 'field', 'any descendant group'));
  if (entity === 'resource') out.push(s('SIMILAR TO resource(', 'keyword', 'perceptual similarity'));
  out.push(s('TEXT', 'keyword', 'full-text search'));
  return out;
}

function groupable(entity: Entity | null): Suggestion[] {
  const out = COMMON.map((f) => s(f, 'field'));
  if (entity) out.push(...SPECIFIC[entity].map((f) => s(f, 'field')));
  out.push(s('meta.<key>', 'field', 'any meta key'));
  for (const base of ['created', 'updated']) for (const u of ['day', 'week', 'month', 'year']) out.push(s(`${base}.${u}`, 'field', `bucket by ${u}`));
  if (entity === 'group') out.push(s('parent.name', 'field'));
  else out.push(s('owner.name', 'field'), s('owner.meta.<key>', 'field'));
  return out;
}

function sortable(entity: Entity | null): Suggestion[] {
  const out = ['id', 'name', 'description', 'created', 'updated', 'guid'].map((f) => s(f, 'field'));
  if (entity) out.push(...SORTABLE[entity].map((f) => s(f, 'field')));
  out.push(s('meta.<key>', 'field', 'any meta key'));
  return out;
}

const AGGS = [
  s('COUNT()', 'function', 'count rows'),
  s('SUM(field)', 'function', 'sum of numeric field'),
  s('AVG(field)', 'function', 'average of numeric field'),
  s('MIN(field)', 'function', 'minimum value'),
  s('MAX(field)', 'function', 'maximum value'),
];

const OPERATORS = [
  s('=', 'operator'),
  s('!=', 'operator'),
  s('>', 'operator'),
  s('>=', 'operator'),
  s('<', 'operator'),
  s('<=', 'operator'),
  s('~', 'operator', 'contains'),
  s('!~', 'operator', 'not contains'),
  s('~*', 'operator', 'regex match (PostgreSQL)'),
  s('!~*', 'operator', 'regex not match (PostgreSQL)'),
  s('BETWEEN', 'operator', 'range (inclusive)'),
  s('IN', 'operator'),
  s('NOT IN', 'operator'),
  s('IS', 'operator'),
];

const kw = (t: Token | undefined, v: string) => !!t && t.type === 'KEYWORD' && t.value === v;
const punct = (t: Token | undefined, v: string) => !!t && t.type === 'PUNCT' && t.value === v;
const isIdent = (t: Token | undefined) => !!t && (t.type === 'IDENT' || kw(t, 'TYPE') || kw(t, 'HAVING'));

function entityInPrefix(toks: Token[]): Entity | null {
  for (let i = 0; i + 2 < toks.length; i++) {
    if (toks[i].text === 'type' && toks[i + 1].type === 'OP' && toks[i + 1].value === '=') {
      const v = toks[i + 2];
      if (v.type === 'STRING' || v.type === 'IDENT') {
        const w = v.value.toLowerCase();
        if (w === 'resource' || w === 'note' || w === 'group') return w;
      }
    }
  }
  return null;
}

function suggest(text: string, cursor: number): Suggestion[] {
  const bytes = toBytes(text);
  if (bytes.length > MAX_QUERY_BYTES) return [];
  const c = Math.max(0, Math.min(cursor, bytes.length));
  const toks = lex(bytes.subarray(0, c)).slice(0, -1);
  if (toks.length > MAX_TOKENS) return [];
  const entity = entityInPrefix(toks);
  if (toks.length === 0) return fieldList(entity);
  const last = toks[toks.length - 1];
  const prev = toks[toks.length - 2];
  const typing = last.pos + last.len === c && (last.type === 'IDENT' || last.type === 'KEYWORD');
  let clause: 'where' | 'group' | 'order' | 'tail' = 'where';
  for (const t of toks) {
    if (kw(t, 'GROUP BY')) clause = 'group';
    else if (kw(t, 'ORDER BY')) clause = 'order';
    else if (kw(t, 'LIMIT') || kw(t, 'OFFSET')) clause = 'tail';
  }
  if (kw(last, 'GROUP BY')) return groupable(entity);
  if (kw(last, 'AND') || kw(last, 'OR') || kw(last, 'NOT') || punct(last, '(')) {
    if (!(clause === 'group' && prev?.type === 'AGG')) return fieldList(entity);
  }
  if (punct(last, '.')) {
    const base = prev?.text ?? '';
    if (clause === 'group' && (base === 'created' || base === 'updated')) {
      return [s('day', 'field'), s('week', 'field', 'bucket by week (Monday)'), s('month', 'field'), s('year', 'field')];
    }
    if (base === 'owner' || base === 'parent' || base === 'children') {
      const out = ['id', 'name', 'description', 'created', 'updated'].map((f) => s(f, 'field'));
      out.push(s('tags', 'field', 'group tag'), s('guid', 'field'), s('category', 'field'), s('url', 'field'));
      out.push(s('parent', 'field', 'parent group traversal'), s('children', 'field', 'child groups traversal'));
      if (base === 'children' && entity === 'group') out.push(s('count', 'field', 'relation count'));
      return out;
    }
    if (base === 'ancestors' || base === 'descendants') {
      const out = ['id', 'name', 'description', 'created', 'updated'].map((f) => s(f, 'field'));
      out.push(s('tags', 'field', 'group tag'), s('guid', 'field'), s('category', 'field'), s('url', 'field'), s('meta.', 'field', 'group meta field'));
      return out;
    }
    const countable = base === 'tags' || (entity && (JUNCTIONS[entity][base] !== undefined));
    if (countable) return [s('count', 'field', 'relation count')];
    return [s('meta.<key>', 'field', 'any meta key')];
  }
  if (clause === 'group') {
    if (punct(last, ',')) return groupable(entity);
    if (kw(last, 'HAVING')) return AGGS;
    if (punct(last, ')')) return [...AGGS, s('HAVING', 'keyword', 'filter aggregated buckets'), s('ORDER BY', 'keyword'), s('LIMIT', 'keyword')];
    if (isIdent(last)) return typing ? groupable(entity) : [s(',', 'keyword', 'add another group field'), ...AGGS, s('ORDER BY', 'keyword'), s('LIMIT', 'keyword')];
  }
  if (clause === 'order') {
    if (kw(last, 'ORDER BY') || punct(last, ',') || (typing && isIdent(last))) return orderKeys(toks, entity);
    if (kw(last, 'ASC') || kw(last, 'DESC')) return [s(',', 'keyword', 'add another sort field'), s('LIMIT', 'keyword')];
    if (isIdent(last)) return [s('ASC', 'keyword', 'ascending'), s('DESC', 'keyword', 'descending'), s(',', 'keyword', 'add another sort field'), s('LIMIT', 'keyword')];
  }
  if (typing && last.type === 'IDENT') return fieldList(entity);
  if (isIdent(last) && !typing) return OPERATORS;
  if (last.type === 'OP' || kw(last, 'IS') || kw(last, 'IN')) {
    let i = toks.length - 2;
    if (kw(last, 'IN') && kw(toks[i], 'NOT')) i--;
    const field = toks[i];
    if (field?.text === 'type') return [s('resource', 'entity_type'), s('note', 'entity_type'), s('group', 'entity_type')];
    if (field && (field.text === 'created' || field.text === 'updated')) {
      return [
        s('-7d', 'rel_date', '7 days ago'),
        s('-30d', 'rel_date', '30 days ago'),
        s('-3m', 'rel_date', '3 months ago'),
        s('-1y', 'rel_date', '1 year ago'),
        s('NOW()', 'function', 'current timestamp'),
        s('START_OF_DAY()', 'function', 'start of today'),
        s('START_OF_WEEK()', 'function', 'start of this week'),
        s('START_OF_MONTH()', 'function', 'start of this month'),
        s('START_OF_YEAR()', 'function', 'start of this year'),
      ];
    }
    return [s('"value"', 'value', 'enter a value')];
  }
  if (['STRING', 'NUMBER', 'RELDATE', 'FUNC'].includes(last.type) || punct(last, ')')) {
    const after = [s('AND', 'keyword'), s('OR', 'keyword'), s('SCOPE', 'keyword'), s('GROUP BY', 'keyword'), s('ORDER BY', 'keyword'), s('LIMIT', 'keyword')];
    const n = toks.length;
    if (punct(last, ')') && n >= 5 && toks[n - 2].type === 'NUMBER' && punct(toks[n - 3], '(') && toks[n - 4].value.toUpperCase() === 'RESOURCE' && kw(toks[n - 5], 'SIMILAR TO')) {
      return [s('WITHIN', 'keyword', 'max perceptual distance'), ...after];
    }
    return after;
  }
  if (kw(last, 'SCOPE')) return [s('"group name"', 'value', 'group name or ID')];
  return [];
}

function orderKeys(toks: Token[], entity: Entity | null): Suggestion[] {
  // Aggregated GROUP BY: its key names and aggregate outputs.
  const gi = toks.findIndex((t) => kw(t, 'GROUP BY'));
  if (gi >= 0) {
    const oi = toks.findIndex((t) => kw(t, 'ORDER BY'));
    const part = toks.slice(gi + 1, oi);
    const hi = part.findIndex((t) => kw(t, 'HAVING'));
    const head = hi >= 0 ? part.slice(0, hi) : part;
    if (head.some((t) => t.type === 'AGG')) {
      const out: Suggestion[] = [];
      let field = '';
      for (let i = 0; i < head.length; i++) {
        const t = head[i];
        if (t.type === 'AGG') {
          if (field) out.push(s(field, 'field', 'group key'));
          field = '';
          const name = t.value;
          if (name === 'COUNT') out.push(s('count', 'field', 'COUNT() result'));
          else {
            const arg: string[] = [];
            let j = i + 2;
            for (; j < head.length && !punct(head[j], ')'); j++) arg.push(head[j].text);
            out.push(s(`${name.toLowerCase()}_${arg.join('')}`, 'field', `${name}(${arg.join('')}) result`));
            i = j;
          }
        } else if (punct(t, ',')) {
          if (field) out.push(s(field, 'field', 'group key'));
          field = '';
        } else if (t.type !== 'PUNCT' || punct(t, '.')) field += t.text;
      }
      return out;
    }
  }
  const out = sortable(entity);
  const text = toks.map((t) => t.value).join(' ');
  if (entity === 'resource' && toks.some((t) => kw(t, 'SIMILAR TO'))) out.push(s('distance', 'field', 'similarity distance'));
  out.push(s('RANDOM()', 'function', 'random order'));
  if (toks.some((t) => kw(t, 'TEXT'))) out.push(s('RANK', 'field', 'relevance'));
  void text;
  return out;
}

const FILTER_REMOVED = new Set(['ORDER BY', 'LIMIT', 'OFFSET', 'GROUP BY', 'HAVING', 'SCOPE', 'type']);

/** Completion; filter mode completes as if the text followed `type = <entity> AND `. */
export function complete(text: string, cursor: number, filterEntity?: Entity): Suggestion[] {
  if (!filterEntity) return suggest(text, cursor);
  const prefix = `type = ${filterEntity} AND `;
  const c = Math.max(0, Math.min(cursor, Buffer.byteLength(text)));
  return suggest(prefix + text, c + prefix.length).filter((x) => !FILTER_REMOVED.has(x.value));
}

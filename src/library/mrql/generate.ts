// POST /v1/mrql/generate (mrql.md §14.8): drafts a query through the configured OpenAI-style
// chat-completions provider. Only the prompt and a syntax description are sent; the draft is
// parsed, validated and linted here and never executed.
import { HttpError, badRequest } from '../../core/http/errors.js';
import { LruMap } from '../../core/lru.js';
import type { Expr, Query } from './ast.js';
import { MrqlError } from './errors.js';
import { parseQuery } from './parser.js';
import { ftsWords } from './translate.js';
import { listParams, validateQuery } from './validate.js';

export const PROVIDER_URL = 'https://api.deepseek.com/chat/completions';

const SYNTAX = `You write MRQL queries for a media library. Reply with JSON {"query": "...", "explanation": "..."} only.
MRQL: [expression] [SCOPE <group id or "name">] [GROUP BY fields [COUNT() SUM(f) AVG(f) MIN(f) MAX(f)] [HAVING ...]] [ORDER BY f [ASC|DESC], ...] [LIMIT n] [OFFSET n].
Select the entity with type = resource | note | group. Operators: = != > >= < <= ~ (wildcards * ?) !~ IN (...) NOT IN IS [NOT] NULL IS [NOT] EMPTY BETWEEN a AND b; combine with AND, OR, NOT and parentheses.
Common fields: id name description created updated tags guid meta.<key>. Resources: groups owner category contentType fileSize (units kb mb gb) width height originalName originalLocation hash notes similarImages.
Notes: groups owner noteType startDate endDate shared resources. Groups: category url parent children resources notes.
Traversal: owner.name, parent.parent.name, children.name, ancestors.name, descendants.name; counts: tags.count. Dates: "2024-01-31", -7d -2w -3m -1y, NOW() START_OF_DAY() START_OF_WEEK() START_OF_MONTH() START_OF_YEAR().
Full text: TEXT ~ "words" with ORDER BY RANK. Similar images: SIMILAR TO resource(<id>) [WITHIN <0-11>]. category and noteType take numeric ids. Use LIMIT between 1 and 500. Never use $placeholders.`;

interface LintError {
  message: string;
  position?: number;
  length?: number;
}

function lint(q: Query): LintError[] {
  const out: LintError[] = [];
  if (q.limit && (q.limit.n < 1 || q.limit.n > 500)) out.push({ message: 'LIMIT must be between 1 and 500 for generated MRQL', position: q.limit.pos });
  if (q.offset && q.offset.n > 10000) out.push({ message: 'OFFSET must be between 0 and 10000 for generated MRQL', position: q.offset.pos });
  if (listParams(q).length) out.push({ message: 'generated MRQL must not contain parameter placeholders ($name)' });
  const walk = (e: Expr) => {
    if (e.k === 'and' || e.k === 'or') {
      walk(e.left);
      walk(e.right);
    } else if (e.k === 'not') walk(e.e);
    else if (e.k === 'text' && ftsWords(e.term).length === 0) {
      out.push({ message: 'TEXT search must contain at least one alphanumeric term', position: e.pos, length: e.len });
    } else if (e.k === 'pred') {
      const last = e.field.parts[e.field.parts.length - 1];
      if (last === 'category' || last === 'noteType') {
        for (const v of e.values ?? (e.value ? [e.value] : [])) {
          if (v.k !== 'number') out.push({ message: `${e.field.text} requires a numeric ID in generated MRQL`, position: v.pos, length: v.len });
        }
      }
    }
  };
  if (q.where) walk(q.where);
  return out;
}

/** Parses, validates and lints a draft. */
export function checkDraft(query: string): { valid: boolean; errors: LintError[] } {
  try {
    const q = parseQuery(query);
    validateQuery(q);
    const errors = lint(q);
    return { valid: errors.length === 0, errors };
  } catch (e) {
    if (e instanceof MrqlError) return { valid: false, errors: [{ message: e.bare, position: e.position, length: e.length }] };
    throw e;
  }
}

export class RateLimiter {
  // Bounded so a stream of distinct callers cannot grow it without end.
  private readonly hits = new LruMap<string, number[]>(10_000);
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}
  allow(key: string, now = Date.now()): boolean {
    const recent = (this.hits.peek(key) ?? []).filter((t) => now - t < this.windowMs);
    if (recent.length >= this.max) {
      this.hits.set(key, recent);
      return false;
    }
    recent.push(now);
    this.hits.set(key, recent);
    return true;
  }
}

export interface GenerationConfig {
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export async function generateDraft(cfg: GenerationConfig, prompt: string, fetchImpl: typeof fetch = fetch) {
  const text = prompt.trim();
  if (text === '') throw badRequest('prompt is required');
  if ([...text].length > 2000) throw badRequest('prompt must be at most 2000 characters');
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), cfg.timeoutMs);
  let body: { choices?: { message?: { content?: string } }[] };
  try {
    const res = await fetchImpl(PROVIDER_URL, {
      method: 'POST',
      signal: ctrl.signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.apiKey}` },
      body: JSON.stringify({
        model: cfg.model,
        messages: [
          { role: 'system', content: SYNTAX },
          { role: 'user', content: text },
        ],
        response_format: { type: 'json_object' },
      }),
    });
    if (!res.ok) throw new HttpError(502, 'MRQL generation provider error');
    body = (await res.json()) as typeof body;
  } catch (e) {
    if (e instanceof HttpError) throw e;
    if (ctrl.signal.aborted) throw new HttpError(504, 'MRQL generation timed out');
    throw new HttpError(502, 'MRQL generation provider error');
  } finally {
    clearTimeout(timer);
  }
  let draft: { query?: unknown; explanation?: unknown };
  try {
    draft = JSON.parse(body.choices?.[0]?.message?.content ?? '');
  } catch {
    throw new HttpError(502, 'MRQL generation provider error');
  }
  const query = typeof draft.query === 'string' ? draft.query.trim() : '';
  const explanation = typeof draft.explanation === 'string' ? draft.explanation : '';
  return { query, explanation, ...checkDraft(query) };
}

// Placeholder binding (mrql.md §12): every listed name must be supplied and vice versa; values
// become literals at the placeholder's position, never text spliced into the query.
import type { Expr, HavingExpr, Query, Value } from './ast.js';
import { MrqlError } from './errors.js';
import { lex } from './lexer.js';
import { listParams } from './validate.js';

export type ParamValue = string | number | boolean | null;

/** §12.4: a supplied value as the literal it stands for. */
export function coerceParam(raw: ParamValue, pos: number, len: number): Value {
  if (raw === null) return { k: 'string', v: '', pos, len };
  if (typeof raw === 'boolean') return { k: 'bool', v: raw, pos, len };
  if (typeof raw === 'number') return { k: 'number', v: raw, raw: String(raw), unit: '', pos, len };
  const toks = lex(raw.trim());
  if (toks.length === 2) {
    const t = toks[0];
    if (t.type === 'NUMBER') {
      const m = /^(\d+(?:\.\d+)?)([kmg]b)?$/i.exec(t.value)!;
      return { k: 'number', v: Number(m[1]), raw: t.value, unit: (m[2]?.toLowerCase() ?? '') as '', pos, len };
    }
    if (t.type === 'RELDATE') {
      const amount = Number(t.value.slice(1, -1));
      if (amount <= 100000) return { k: 'reldate', amount, unit: t.value.slice(-1).toLowerCase() as 'd', raw: t.value, pos, len };
    }
    if (t.type === 'FUNC') return { k: 'func', name: t.value.slice(0, -2), pos, len };
    if (t.type === 'STRING') return { k: 'string', v: t.value, pos, len };
    if (t.type === 'IDENT' && /^(true|false)$/i.test(t.value)) return { k: 'bool', v: t.value.toLowerCase() === 'true', pos, len };
  }
  return { k: 'string', v: raw, pos, len };
}

function plural(names: string[], one: string, many: string): string {
  return names.length === 1 ? `${one} $${names[0]}` : `${many}: ${names.map((n) => `$${n}`).join(', ')}`;
}

/** Replaces every placeholder; throws the bind errors of §12.3. */
export function bindParams(q: Query, supplied: Record<string, unknown>): Query {
  const listed = listParams(q);
  const missing = listed.filter((n) => !Object.prototype.hasOwnProperty.call(supplied, n));
  if (missing.length) throw new MrqlError('bind', plural(missing, 'missing parameter', 'missing parameters'));
  const extra = Object.keys(supplied)
    .filter((n) => !listed.includes(n))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (extra.length) throw new MrqlError('bind', plural(extra, 'unknown parameter', 'unknown parameters'));
  for (const n of listed) {
    const v = supplied[n];
    if (!(v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))) {
      throw new MrqlError('bind', `parameter $${n} must be a string, number, boolean or null`);
    }
  }
  if (listed.length === 0) return q;
  const bind = (v: Value): Value => (v.k === 'param' ? coerceParam(supplied[v.name] as ParamValue, v.pos, v.len) : v);
  const walk = (e: Expr): Expr => {
    if (e.k === 'and' || e.k === 'or') return { ...e, left: walk(e.left), right: walk(e.right) };
    if (e.k === 'not') return { ...e, e: walk(e.e) };
    if (e.k === 'pred') return { ...e, value: e.value && bind(e.value), values: e.values?.map(bind) };
    return e;
  };
  const walkH = (h: HavingExpr): HavingExpr => {
    if (h.k === 'and' || h.k === 'or') return { ...h, left: walkH(h.left), right: walkH(h.right) };
    if (h.k === 'not') return { ...h, e: walkH(h.e) };
    return { ...h, value: bind(h.value) };
  };
  return {
    ...q,
    where: q.where && walk(q.where),
    groupBy: q.groupBy && { ...q.groupBy, having: q.groupBy.having && walkH(q.groupBy.having) },
  };
}

/**
 * Collects placeholder values from the three sources of §12.5: query string `param.<name>` beats
 * form fields, which beat the JSON `params` object; within one source the first value wins.
 */
export function collectParams(query: Record<string, unknown> | undefined, body: unknown, isJson: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fromPairs = (src: Record<string, unknown> | undefined) => {
    for (const [k, v] of Object.entries(src ?? {})) {
      if (!k.startsWith('param.')) continue;
      out[k.slice(6)] = Array.isArray(v) ? v[0] : v;
    }
  };
  if (isJson && body && typeof body === 'object' && !Array.isArray(body)) {
    const p = (body as Record<string, unknown>).params;
    if (p && typeof p === 'object' && !Array.isArray(p)) Object.assign(out, p);
  }
  if (!isJson && body && typeof body === 'object') fromPairs(body as Record<string, unknown>);
  fromPairs(query);
  return out;
}

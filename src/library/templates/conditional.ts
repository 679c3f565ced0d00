// [conditional …]…[elseif …]…[else]…[/conditional] (companion §5.3; mrql.md §19.2).
import { esc, readPath } from './format.js';
import { splitAt, type CodeNode } from './parse.js';
import { runInline } from './mrql.js';
import type { Scope } from './state.js';

const OPS = ['eq', 'neq', 'gt', 'lt', 'gte', 'lte', 'in', 'contains', 'matches', 'empty', 'not-empty'];

function isEmpty(v: unknown): boolean {
  if (v === null || v === undefined || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v as object).length === 0;
  return false;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);

/** RE2 has no look-around or back-references: such patterns evaluate to false. */
function re2(pattern: string): RegExp | null {
  if (/\(\?<?[=!]|\\[1-9]/.test(pattern)) return null;
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

function test(op: string, want: string, v: unknown): boolean {
  switch (op) {
    case 'eq':
    case 'neq': {
      const same = Number.isFinite(num(v)) && Number.isFinite(num(want)) ? num(v) === num(want) : text(v) === want;
      return op === 'eq' ? same : !same;
    }
    case 'gt':
      return num(v) > num(want);
    case 'lt':
      return num(v) < num(want);
    case 'gte':
      return num(v) >= num(want);
    case 'lte':
      return num(v) <= num(want);
    case 'in':
      return want.split(',').map((x) => x.trim()).includes(text(v));
    case 'contains':
      return text(v).includes(want);
    case 'matches':
      return re2(want)?.test(text(v)) ?? false;
    case 'empty':
      return want === 'true' ? isEmpty(v) : !isEmpty(v);
    case 'not-empty':
      return want === 'true' ? !isEmpty(v) : isEmpty(v);
    default:
      return false;
  }
}

async function sourceValue(a: Record<string, string>, suffix: string, s: Scope): Promise<{ value?: unknown; error?: string } | null> {
  if (a[`path${suffix}`] !== undefined) return { value: readPath(s.ctx.entity.Meta, a[`path${suffix}`]) };
  if (a[`field${suffix}`] !== undefined) return { value: s.ctx.entity[a[`field${suffix}`]] };
  const q = a[`mrql${suffix}`];
  if (q === undefined) return null;
  const attrs: Record<string, string> = {};
  for (const k of ['scope', 'limit', 'buckets']) if (a[k] !== undefined) attrs[k] = a[k];
  for (const [k, v] of Object.entries(a)) if (k.startsWith('param-')) attrs[k] = v;
  const out = await runInline(s, q, attrs);
  if (out.error || !out.result) return { error: out.error ?? 'query failed' };
  const r = out.result;
  if ('mode' in r) {
    if (r.mode === 'bucketed') return { value: r.buckets.length };
    const col = a[`aggregate${suffix}`];
    if (!col) return { error: 'an aggregated MRQL condition needs aggregate="<column>"' };
    return { value: r.rows[0]?.[col] };
  }
  return { value: r.resources.length + r.notes.length + r.groups.length };
}

/** Evaluates one tag's conditions; numbered suffixes stop at the first missing source. */
async function holds(a: Record<string, string>, s: Scope): Promise<{ ok: boolean; error?: string }> {
  const any = a.combine === 'any';
  const checks: boolean[] = [];
  for (let i = 1; ; i++) {
    const suffix = i === 1 ? '' : String(i);
    const src = await sourceValue(a, suffix, s);
    if (!src) break;
    if (src.error) return { ok: false, error: src.error };
    const ops = OPS.filter((op) => a[`${op}${suffix}`] !== undefined);
    if (ops.length === 0) checks.push(!isEmpty(src.value));
    for (const op of ops) checks.push(test(op, a[`${op}${suffix}`], src.value));
  }
  return { ok: checks.length > 0 && (any ? checks.some(Boolean) : checks.every(Boolean)) };
}

export async function conditionalShortcode(n: CodeNode, s: Scope): Promise<string> {
  if (!n.body) return '<span class="shortcode-error" title="[conditional] is not closed">⚠ conditional</span>';
  const branches = splitAt(n.body, ['elseif', 'else']);
  for (const [i, b] of branches.entries()) {
    const attrs = i === 0 ? n.attrs : b.divider!.attrs;
    if (b.divider?.name === 'else') return s.state.render(b.nodes, s);
    const r = await holds(attrs, s);
    if (r.error) return `<div class="mrql-error">${esc(r.error)}</div>`;
    if (r.ok) return s.state.render(b.nodes, s);
  }
  return '';
}

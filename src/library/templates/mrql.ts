// [mrql] (mrql.md §19.1) and server-side rendering of MRQL results with CustomMRQLResult (§16).
import type { Bucket, MrqlResult, RunOptions } from '../mrql/types.js';
import type { EntityObject } from '../mrql/entities.js';
import { MrqlError } from '../mrql/errors.js';
import type { Entity } from '../mrql/fields.js';
import { lex } from '../mrql/lexer.js';
import { LruMap } from '../../core/lru.js';
import { carrierIdOf, Lookups, type EntityContext } from './context.js';
import { esc, formatValue } from './format.js';
import { parseShortcodes, splitAt, type CodeNode, type Node } from './parse.js';
import { anchorsOf, entityUrl, MAX_DEPTH, RenderDeadline, renderText, type RenderState, type Scope } from './state.js';

interface Outcome {
  result?: MrqlResult;
  error?: string;
}

const int = (v: string | undefined, fallback: number) => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

// A card's nested query is the same text on every card of a list (and is looked at twice per
// card: when the list prefetches and when the card renders), so the answer is kept by text.
const scopeClauses = new LruMap<string, boolean>(256);

/** Whether the query text has a top-level SCOPE clause (found by lexing). */
function hasScope(text: string): boolean {
  let has = scopeClauses.get(text);
  if (has === undefined) {
    has = lex(text).some((t) => t.type === 'KEYWORD' && t.value === 'SCOPE');
    scopeClauses.set(text, has);
  }
  return has;
}

/** `SCOPE <id>` spliced before the first top-level GROUP BY/HAVING/ORDER BY/LIMIT/OFFSET (§19.1). */
export function withScope(text: string, id: number): string {
  const toks = lex(text);
  if (toks.some((t) => t.type === 'ILLEGAL') || hasScope(text)) return text;
  const at = toks.find((t) => t.type === 'KEYWORD' && ['GROUP BY', 'HAVING', 'ORDER BY', 'LIMIT', 'OFFSET'].includes(t.value));
  const bytes = Buffer.from(text);
  if (!at) return `${text.trimEnd()} SCOPE ${id}`;
  return `${bytes.subarray(0, at.pos).toString()}SCOPE ${id} ${bytes.subarray(at.pos).toString()}`;
}

function items(result: MrqlResult): { type: Entity; entity: EntityObject }[] {
  if ('mode' in result) {
    if (result.mode !== 'bucketed') return [];
    return result.buckets.flatMap((b) => b.items.map((entity) => ({ type: result.entityType as Entity, entity })));
  }
  return [
    ...result.resources.map((entity) => ({ type: 'resource' as const, entity })),
    ...result.notes.map((entity) => ({ type: 'note' as const, entity })),
    ...result.groups.map((entity) => ({ type: 'group' as const, entity })),
  ];
}

/**
 * Loads carriers for a batch of entities (one lookup per kind) and notes their groups, whose
 * chains are read in one lookup only if a card asks for a parent or root anchor.
 */
async function prepareBatch(state: RenderState, list: { type: Entity; entity: EntityObject }[]): Promise<void> {
  for (const type of ['resource', 'note', 'group'] as const) {
    const ids = list.filter((x) => x.type === type).map((x) => carrierIdOf({ type, entity: x.entity })).filter((v): v is number => v !== null);
    if (ids.length) await state.lookups.loadCarriers(type, ids);
  }
  state.lookups.wantChains(list.flatMap((x) => Lookups.baseIds(x.type, [x.entity])));
}

/** A card's context; its anchors are left to `anchorsOf`, which loads the batch's chains when first asked. */
function contextOf(state: RenderState, type: Entity, entity: EntityObject): EntityContext {
  const carrier = state.lookups.carrier(type, carrierIdOf({ type, entity }));
  return { type, entity, metaSchema: carrier?.metaSchema };
}

/** The CustomMRQLResult card of one entity, with its carrier's CSS the first time (§16). */
async function customCard(state: RenderState, type: Entity, entity: EntityObject, depth: number): Promise<string | null> {
  const carrier = state.lookups.carrier(type, carrierIdOf({ type, entity }));
  if (!carrier || carrier.mrqlResult.trim() === '') return null;
  const ctx = contextOf(state, type, entity);
  let out = '';
  const key = `${type}:${carrier.id}`;
  if (carrier.css.trim() !== '' && !state.cssSeen.has(key)) {
    state.cssSeen.add(key);
    out += `<style data-mr-custom-css="${key}">${await renderText(carrier.css, ctx, state, depth)}</style>`;
  }
  return out + (await renderText(carrier.mrqlResult, ctx, state, depth));
}

/** render=1: fills renderedHTML on every flat entity and bucket item (§16). */
export async function renderResult(result: MrqlResult, state: RenderState): Promise<void> {
  if ('mode' in result && result.mode === 'aggregated') return;
  const list = items(result);
  await prepareBatch(state, list);
  await prefetchCards(state, list, 0);
  for (const { type, entity } of list) entity.renderedHTML = (await customCard(state, type, entity, 0)) ?? '';
}

function defaultCard(type: Entity, e: EntityObject): string {
  const desc = String(e.Description ?? '');
  return `<div class="mrql-card" data-type="${type}" data-id="${esc(String(e.ID))}"><a href="${esc(entityUrl(type, e.ID))}">${esc(String(e.Name ?? ''))}</a>${desc ? `<p>${esc(desc.length > 200 ? `${desc.slice(0, 197)}...` : desc)}</p>` : ''}</div>`;
}

async function renderItems(list: { type: Entity; entity: EntityObject }[], format: string, body: Node[] | null, s: Scope): Promise<string> {
  if (body) {
    await prepareBatch(s.state, list);
    let out = '';
    for (const { type, entity } of list) out += await s.state.render(body, { ...s, ctx: contextOf(s.state, type, entity), each: undefined });
    return out;
  }
  const link = (type: Entity, e: EntityObject) => `<a href="${esc(entityUrl(type, e.ID))}">${esc(String(e.Name ?? ''))}</a>`;
  if (format === 'table') {
    const rows = list.map(({ type, entity }) => `<tr data-id="${esc(String(entity.ID))}"><td>${link(type, entity)}</td><td>${type}</td><td>${esc(String(entity.Description ?? ''))}</td></tr>`);
    return `<table class="mrql-table"><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
  }
  if (format === 'list') {
    return `<ul class="mrql-list">${list.map(({ type, entity }) => `<li>${link(type, entity)}${entity.Description ? ` <span class="mrql-description">${esc(String(entity.Description))}</span>` : ''}</li>`).join('')}</ul>`;
  }
  if (format === 'compact') return `<span class="mrql-compact">${list.map(({ type, entity }) => link(type, entity)).join(', ')}</span>`;
  // Only templates and cards read carriers and group chains; the fixed formats above do not.
  await prepareBatch(s.state, list);
  await prefetchCards(s.state, list, s.depth);
  let out = '<div class="mrql-cards">';
  for (const { type, entity } of list) out += (await customCard(s.state, type, entity, s.depth)) ?? defaultCard(type, entity);
  return `${out}</div>`;
}

function aggregatedTable(r: Extract<MrqlResult, { mode: 'aggregated' }>): string {
  const head = r.columns.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = r.rows.map((row) => `<tr>${r.columns.map((c) => `<td>${esc(formatValue(row[c], undefined, undefined))}</td>`).join('')}</tr>`).join('');
  return `<table class="mrql-table mrql-aggregated"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

async function bucketsHtml(r: Extract<MrqlResult, { mode: 'bucketed' }>, format: string, body: Node[] | null, s: Scope): Promise<string> {
  let out = '';
  for (const b of r.buckets as Bucket[]) {
    const key = r.keyColumns.map((k) => `<span class="mrql-bucket-key">${esc(k)}: ${esc(formatValue(b.key[k], undefined, undefined) || '—')}</span>`).join(' ');
    const list = b.items.map((entity) => ({ type: r.entityType as Entity, entity }));
    out += `<div class="mrql-bucket"><div class="mrql-bucket-header">${key} <span class="mrql-bucket-count">${b.items.length}</span></div>${await renderItems(list, format, body, s)}</div>`;
  }
  return out;
}

function countOf(r: MrqlResult): number {
  if ('mode' in r) return r.mode === 'aggregated' ? r.rows.length : r.buckets.length;
  return r.resources.length + r.notes.length + r.groups.length;
}

interface InlineRequest {
  /** The per-render cache key: same text, parameters, limit, buckets and scope run once. */
  key: string;
  opts: RunOptions;
  scopeId: number | null | undefined;
}

/**
 * True when an [mrql] shows only links (and descriptions) of its entities: a fixed format, no
 * template and no scalar value; its rows then need no more than RunOptions.fields 'link'.
 */
export function linkOnly(attrs: Record<string, string>, body: Node[] | undefined): boolean {
  return attrs.value === undefined && !body && (attrs.format === 'compact' || attrs.format === 'list' || attrs.format === 'table');
}

/** What an [mrql]/[conditional] query runs with in this scope (§19.1). */
async function inlineRequest(s: Scope, text: string, attrs: Record<string, string>, links = false): Promise<InlineRequest> {
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) if (k.startsWith('param-')) params[k.slice(6)] = v;
  const limit = int(attrs.limit, 20);
  const buckets = int(attrs.buckets, 5);
  let contextScope: number | null | undefined;
  if (!hasScope(text)) {
    const scope = attrs.scope ?? (s.ctx.globalScope ? 'global' : 'entity');
    if (/^\d+$/.test(scope)) contextScope = Number(scope) || undefined;
    else if (scope === 'parent' || scope === 'root') contextScope = (await anchorsOf(s))[scope];
    // The entity's own scope needs no chain.
    else if (scope !== 'global') contextScope = s.ctx.anchors?.scope ?? Lookups.scopeOf(s.ctx.type, s.ctx.entity);
  }
  // A narrowed answer is cached apart: a template running the same query reads every field.
  const key = JSON.stringify([text, params, limit, buckets, contextScope ?? (contextScope === null ? 'none' : 'global'), links]);
  const opts: RunOptions = { limit, buckets, params, principal: s.state.principal, contextScope };
  if (links) opts.fields = 'link';
  return { key, opts, scopeId: contextScope };
}

/** False (and the one warning per page) when the render has run its budget of distinct queries. */
function withinBudget(st: RenderState): boolean {
  if (st.budget > 0 && st.cache.size >= st.budget) {
    if (!st.warned) {
      st.warned = true;
      console.warn(`mrql: inline query budget exceeded (${st.budget} per page)`);
    }
    return false;
  }
  return true;
}

const outcomeOf = (answer: MrqlResult | MrqlError): Outcome => (answer instanceof MrqlError ? { error: answer.message } : { result: answer });

/** Runs (or reuses) one [mrql]/[conditional] query under the render's budget and cache. */
export async function runInline(s: Scope, text: string, attrs: Record<string, string>, links = false): Promise<Outcome & { scopeId?: number | null }> {
  if (s.state.restricted) return { error: 'MRQL does not run on shared pages' };
  const req = await inlineRequest(s, text, attrs, links);
  const st = s.state;
  let pending = st.cache.get(req.key) as Promise<Outcome> | undefined;
  if (!pending) {
    if (!withinBudget(st)) {
      return { error: `inline query budget exceeded (${st.budget} per page); the remaining inline queries of this page were not run` };
    }
    pending = st.mrql.engine.execute(text, req.opts, st.stats).then(
      (result) => ({ result }),
      (e: unknown) => {
        if (e instanceof MrqlError) return { error: e.message };
        throw e;
      },
    );
    st.cache.set(req.key, pending);
  }
  return { ...(await pending), scopeId: req.scopeId };
}

/**
 * Before a list of cards renders, runs the `[mrql]` shortcodes every card's template holds at
 * its top level (so each card would run them) together, and leaves their answers in the
 * render's cache, where each card then finds its own: one statement for a list instead of
 * one per card (mrql.md §23.3, nested-mrql). Shortcodes under other shortcodes, saved queries
 * and anything past the budget are left to the card's own render.
 */
async function prefetchCards(state: RenderState, list: { type: Entity; entity: EntityObject }[], depth: number): Promise<void> {
  if (state.restricted || depth >= MAX_DEPTH) return;
  const wanted: { text: string; req: InlineRequest }[] = [];
  const seen = new Set<string>();
  for (const { type, entity } of list) {
    const carrier = state.lookups.carrier(type, carrierIdOf({ type, entity }));
    if (!carrier || !carrier.mrqlResult.includes('[mrql')) continue;
    const scope: Scope = { ctx: contextOf(state, type, entity), state, depth: depth + 1 };
    for (const n of parseShortcodes(carrier.mrqlResult)) {
      if (n.k !== 'code' || n.name !== 'mrql' || !n.attrs.query) continue;
      const req = await inlineRequest(scope, n.attrs.query, n.attrs, linkOnly(n.attrs, n.body));
      if (state.cache.has(req.key) || seen.has(req.key)) continue;
      seen.add(req.key);
      wanted.push({ text: n.attrs.query, req });
    }
  }
  const run: typeof wanted = [];
  for (const w of wanted) {
    if (state.cache.size + run.length >= state.budget && state.budget > 0) break;
    run.push(w);
  }
  if (run.length < 2) return;
  const answers = state.mrql.engine.executeMany(
    run.map((w) => ({ text: w.text, opts: w.req.opts })),
    state.stats,
  );
  run.forEach((w, k) => {
    const pending = answers.then((a) => outcomeOf(a[k]));
    // A card that never renders (the render stopped on an error) must not leave a rejection unheard.
    pending.catch(() => undefined);
    state.cache.set(w.req.key, pending);
  });
  await answers;
}

function viewAll(text: string, savedId: number | undefined, scopeId: number | null | undefined): string {
  if (savedId !== undefined && scopeId === undefined) return `/mrql?saved=${savedId}`;
  const q = typeof scopeId === 'number' ? withScope(text, scopeId) : text;
  return `/mrql?q=${encodeURIComponent(q)}`;
}

export async function mrqlShortcode(n: CodeNode, s: Scope): Promise<string> {
  const a = n.attrs;
  const scalar = a.value !== undefined;
  const fail = (msg: string) => (scalar ? `<span class="mrql-error">${esc(msg)}</span>` : `<div class="mrql-results mrql-error">${esc(msg)}</div>`);
  let text = a.query;
  let savedId: number | undefined;
  if (!text && a.saved) {
    const row = await s.state.mrql.saved.findByName(a.saved);
    if (!row) return fail(`saved MRQL query "${a.saved}" not found`);
    text = row.query;
    savedId = row.id;
  }
  if (!text) return '';
  let outcome: Awaited<ReturnType<typeof runInline>>;
  try {
    outcome = await runInline(s, text, a, linkOnly(a, n.body));
  } catch (e) {
    if (e instanceof RenderDeadline) throw e;
    return fail((e as Error).message);
  }
  if (outcome.error || !outcome.result) return fail(outcome.error ?? 'query failed');
  const r = outcome.result;
  // Only {link-all} and link-all="true" read the link (it lexes the text): made when asked.
  let link: string | undefined;
  const queryText = text;
  const linkAll = () => (link ??= viewAll(queryText, savedId, outcome.scopeId));
  if (scalar) {
    let v: unknown;
    if (a.value === 'count') v = countOf(r);
    else if ('mode' in r && r.mode === 'aggregated') v = r.rows[0]?.[a.value];
    else return fail(`value="${a.value}" needs an aggregated GROUP BY result`);
    return esc(formatValue(v, a.format, a.layout));
  }
  const parts = n.body ? splitAt(n.body, ['else']) : null;
  const main = parts ? parts[0].nodes : [];
  const header = main.find((x): x is CodeNode => x.k === 'code' && x.name === 'header' && !!x.body);
  const footer = main.find((x): x is CodeNode => x.k === 'code' && x.name === 'footer' && !!x.body);
  const template = main.filter((x) => x !== header && x !== footer);
  const hasTemplate = template.some((x) => x.k === 'code' || x.text.trim() !== '');
  const count = countOf(r);
  const slots = async (nodes: Node[]) => {
    let html = await s.state.render(nodes, s);
    if (html.includes('{total}')) html = html.replaceAll('{total}', String(await totalOf(s, text!, a, r, outcome.scopeId)));
    return html.replaceAll('{count}', String(count)).replaceAll('{link-all}', () => esc(linkAll()));
  };
  if (count === 0) {
    const elsePart = parts?.[1];
    if (elsePart) return slots(elsePart.nodes);
    return '<div class="mrql-results"><p class="mrql-empty">No results.</p></div>';
  }
  const format = a.format ?? '';
  let inner: string;
  if ('mode' in r && r.mode === 'aggregated') inner = aggregatedTable(r);
  else if ('mode' in r) inner = await bucketsHtml(r, format, hasTemplate ? template : null, s);
  else inner = await renderItems(items(r), format, hasTemplate ? template : null, s);
  const head = header?.body ? await slots(header.body) : '';
  const foot = footer?.body ? await slots(footer.body) : '';
  const more = a['link-all'] === 'true' ? `<a class="mrql-view-all" href="${esc(linkAll())}">View all →</a>` : '';
  return `<div class="mrql-results">${head}${inner}${foot}${more}</div>`;
}

/** {total}: one extra COUNT over the same WHERE and scope (flat); the returned count otherwise. */
async function totalOf(s: Scope, text: string, a: Record<string, string>, r: MrqlResult, scopeId: number | null | undefined): Promise<number> {
  if ('mode' in r) return countOf(r);
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) if (k.startsWith('param-')) params[k.slice(6)] = v;
  try {
    return await s.state.mrql.engine.countTotal(text, { params, principal: s.state.principal, contextScope: scopeId }, s.state.stats);
  } catch {
    return countOf(r);
  }
}

export { parseShortcodes };

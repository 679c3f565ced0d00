// The server-side shortcode engine (companion §5.3, mrql.md §16, §19): expands shortcodes in
// carrier slots, partials and [mrql] item templates against an entity. One RenderState per page
// or API response carries the query budget, the per-render query cache, the deadline and the
// batched carrier/hierarchy lookups.
import type { Principal } from '../auth/principal.js';
import type { Entity } from '../mrql/fields.js';
import type { MrqlService } from '../mrql/service.js';
import type { Stats } from '../mrql/types.js';
import { carrierIdOf, type EntityContext, type Lookups } from './context.js';
import type { Sealer } from './deferred.js';
import { esc, formatValue, readPath } from './format.js';
import { parseShortcodes, splitAt, sourceOf, type CodeNode, type Node } from './parse.js';
import { mrqlShortcode } from './mrql.js';
import { conditionalShortcode } from './conditional.js';
import { anchorsOf, entityUrl, MAX_DEPTH, RenderDeadline, renderText, type PluginShortcodes, type RenderState, type Scope } from './state.js';

export interface StateOptions {
  principal?: Principal;
  stats?: Stats;
  /** Fail on the deadline instead of rendering on (API rendering). */
  strict?: boolean;
  /** Pages: [lazy] and [details] defer their body to the browser. */
  sealer?: Sealer;
  /** Share pages: no MRQL, read-only [meta]. */
  restricted?: boolean;
  /** Renders [plugin:…] shortcodes (none on share pages). */
  plugins?: PluginShortcodes;
}

export function newRenderState(mrql: MrqlService, lookups: Lookups, opts: StateOptions = {}): RenderState {
  return {
    mrql,
    render: renderNodes,
    principal: opts.principal,
    stats: opts.stats,
    lookups,
    budget: mrql.engine.settings.pageQueryBudget,
    cache: new Map(),
    deadline: Date.now() + mrql.engine.settings.timeoutMs,
    strict: opts.strict ?? false,
    warned: false,
    cssSeen: new Set(),
    partials: new Map(),
    sealer: opts.sealer,
    restricted: opts.restricted,
    plugins: opts.restricted ? undefined : opts.plugins,
  };
}

const isTrue = (v: string | undefined) => v === 'true';

/** Expands every shortcode of `text` against the entity. */
export const renderShortcodes = renderText;

export async function renderNodes(nodes: Node[], s: Scope): Promise<string> {
  let out = '';
  for (const n of nodes) {
    if (n.k === 'text') out += n.text;
    else out += await renderCode(n, s);
  }
  return out;
}

async function renderCode(n: CodeNode, s: Scope): Promise<string> {
  if (Date.now() > s.state.deadline) {
    if (s.state.strict) throw new RenderDeadline('rendering exceeded the MRQL timeout');
  }
  if (s.depth >= MAX_DEPTH) return '<!-- mr:shortcode depth limit reached -->';
  const inner: Scope = { ...s, depth: s.depth + 1 };
  const a = n.attrs;
  switch (n.name) {
    case 'meta':
      return s.state.restricted ? publishedMeta(a, s.ctx) : metaCode(a, s.ctx);
    case 'property':
      return valueOut(readPath(s.ctx.entity, a.path ?? ''), a);
    case 'item': {
      if (!s.each) return '';
      if (isTrue(a.index)) return String(s.each.index + 1);
      return valueOut(a.path ? readPath(s.each.value, a.path) : s.each.value, a);
    }
    case 'mrql':
      return s.state.restricted ? '<!-- mr:mrql unavailable in this context -->' : mrqlShortcode(n, inner);
    case 'conditional':
      return conditionalShortcode(n, inner);
    case 'link':
      return linkCode(n, inner);
    case 'each':
      return eachCode(n, inner);
    case 'partial':
      return partialCode(a.name ?? '', inner);
    case 'lazy':
    case 'details': {
      if (s.inReload) return '<span class="shortcode-error" title="[lazy] and [details] cannot sit inside [reload]">⚠ reload</span>';
      const summary = `<summary>${esc(a.summary ?? 'Details')}</summary>`;
      const id = s.ctx.entity.ID;
      if (s.state.sealer && n.body && typeof id === 'number') {
        const token = s.state.sealer.seal({ body: sourceOf(n.body), type: s.ctx.type, id });
        const note = '<noscript>This part loads with JavaScript.</noscript>';
        if (n.name === 'lazy') return `<lazy-shortcode data-token="${esc(token)}">${note}</lazy-shortcode>`;
        return `<details class="shortcode-details" data-token="${esc(token)}"${isTrue(a.open) ? ' open' : ''}>${summary}${note}</details>`;
      }
      // No signer in this context (API responses, previews): the body renders inline.
      const body = n.body ? await renderNodes(n.body, inner) : '';
      if (n.name === 'lazy') return body;
      return `<details class="shortcode-details"${isTrue(a.open) ? ' open' : ''}>${summary}${body}</details>`;
    }
    case 'reload': {
      if (s.inReload) return '<span class="shortcode-error" title="[reload] cannot sit inside [reload]">⚠ reload</span>';
      const face = n.body ? await renderNodes(n.body, { ...inner, inReload: true }) : esc(a.label ?? 'Reload');
      if (s.state.restricted) return `<button type="button" class="shortcode-reload" onclick="location.reload()">${face}</button>`;
      // public/shortcodes.js re-renders the innermost deferred block or slot region, else the page.
      return `<button type="button" class="shortcode-reload" data-shortcode-reload>${face}</button>`;
    }
    case 'else':
    case 'elseif':
    case 'header':
    case 'footer':
      return n.body ? `${n.open}${await renderNodes(n.body, inner)}[/${n.name}]` : n.open;
    default:
      return pluginCode(n, s);
  }
}

const PLUGIN_UNAVAILABLE = '<!-- mr:plugin unavailable in this context -->';

/** [plugin:<plugin>:<name>]: the plugin's HTML, expanded again for nested shortcodes. */
async function pluginCode(n: CodeNode, s: Scope): Promise<string> {
  const plugins = s.state.plugins;
  const parts = n.name.split(':');
  if (!plugins || parts.length !== 3 || parts[0] !== 'plugin') return PLUGIN_UNAVAILABLE;
  const out = await plugins.render({
    plugin: parts[1],
    name: parts[2],
    attrs: n.attrs,
    inner: n.body ? sourceOf(n.body) : '',
    isBlock: n.body !== undefined,
    type: s.ctx.type,
    entity: s.ctx.entity,
    principal: s.state.principal,
  });
  return out.reprocess ? renderText(out.html, s.ctx, s.state, s.depth + 1) : out.html;
}

function valueOut(value: unknown, a: Record<string, string>): string {
  let text = value === undefined || value === null ? '' : formatValue(value, a.format, a.layout);
  if (text === '' && a.default !== undefined) text = a.default;
  return isTrue(a.raw) ? text : esc(text);
}

function schemaNode(schemaText: string | undefined, path: string): unknown {
  if (!schemaText) return undefined;
  try {
    let node = JSON.parse(schemaText) as Record<string, unknown> | undefined;
    for (const seg of path.split('.')) {
      node = (node?.properties as Record<string, Record<string, unknown>> | undefined)?.[seg];
      if (!node) return undefined;
    }
    return node;
  } catch {
    return undefined;
  }
}

/** [meta] on a share page: the value as text, nothing to edit and no script needed. */
function publishedMeta(a: Record<string, string>, ctx: EntityContext): string {
  const path = a.path ?? '';
  if (path === '') return '';
  const value = readPath(ctx.entity.Meta, path);
  const text = value === undefined || value === null || value === '' ? (a.default ?? '') : typeof value === 'object' ? JSON.stringify(value) : formatValue(value, undefined, undefined);
  if (text === '' && isTrue(a['hide-empty'])) return '';
  return `<span class="shortcode-meta" data-path="${esc(path)}">${esc(text)}</span>`;
}

function metaCode(a: Record<string, string>, ctx: EntityContext): string {
  const path = a.path ?? '';
  if (path === '') return '';
  const value = readPath(ctx.entity.Meta, path);
  const schema = schemaNode(ctx.metaSchema, path);
  const attrs: [string, string][] = [
    ['data-path', path],
    ['data-editable', isTrue(a.editable) ? 'true' : 'false'],
    ['data-hide-empty', isTrue(a['hide-empty']) ? 'true' : 'false'],
    ['data-default', a.default ?? ''],
    ['data-entity-type', ctx.type],
    ['data-entity-id', String(ctx.entity.ID ?? '')],
    ['data-schema', schema === undefined ? '' : JSON.stringify(schema)],
    ['data-value', value === undefined ? '' : JSON.stringify(value)],
  ];
  return `<meta-shortcode ${attrs.map(([k, v]) => `${k}="${esc(v)}"`).join(' ')}></meta-shortcode>`;
}

const CARRIER_PAGE: Record<Entity, string> = { resource: 'resourceCategory', note: 'noteType', group: 'category' };

async function linkCode(n: CodeNode, s: Scope): Promise<string> {
  const ctx = s.ctx;
  const to = n.attrs.to ?? 'self';
  let url: string | null = null;
  if (to === 'self') url = entityUrl(ctx.type, ctx.entity.ID);
  else if (to === 'category') {
    const id = carrierIdOf(ctx);
    url = id === null ? null : `/${CARRIER_PAGE[ctx.type]}?id=${id}`;
  } else if (to === 'owner' || to === 'root') {
    const anchors = await anchorsOf(s);
    const target = to === 'owner' ? (ctx.type === 'group' ? anchors.parent : anchors.scope) : anchors.root;
    url = target === null ? null : `/group?id=${target}`;
  }
  if (!n.body) return url ? esc(url) : '';
  const body = await renderNodes(n.body, s);
  return url ? `<a href="${esc(url)}">${body}</a>` : body;
}

async function eachCode(n: CodeNode, s: Scope): Promise<string> {
  const parts = splitAt(n.body ?? [], ['else']);
  const list = readPath(s.ctx.entity.Meta, n.attrs.path ?? '');
  const limit = Math.max(0, Number.parseInt(n.attrs.limit ?? '100', 10) || 100);
  if (!Array.isArray(list) || list.length === 0) return parts[1] ? renderNodes(parts[1].nodes, s) : '';
  let out = '';
  for (let i = 0; i < Math.min(limit, list.length); i++) out += await renderNodes(parts[0].nodes, { ...s, each: { value: list[i], index: i } });
  return out;
}

async function partialCode(name: string, s: Scope): Promise<string> {
  const st = s.state;
  if (!st.partials.has(name)) st.partials.set(name, await st.lookups.partial(name));
  const content = st.partials.get(name);
  if (content === null || content === undefined) return `<!-- partial "${esc(name)}" not found -->`;
  return renderNodes(parseShortcodes(content), s);
}

export { sourceOf, entityUrl, RenderDeadline };
export type { RenderState, Scope };

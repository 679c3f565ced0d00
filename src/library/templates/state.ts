// One render's state and the scope a shortcode renders in. The state carries the function that
// renders nested nodes, so the shortcodes that render bodies ([mrql], [conditional]) need not
// import the renderer that dispatches to them.
import type { Principal } from '../auth/principal.js';
import type { Entity } from '../mrql/fields.js';
import type { MrqlService } from '../mrql/service.js';
import type { Stats } from '../mrql/types.js';
import { Lookups, type EntityContext } from './context.js';
import type { Sealer } from './deferred.js';
import { parseShortcodes, type Node } from './parse.js';
import type { ShortcodeDoc } from './docs.js';

export const MAX_DEPTH = 10;

export type RenderNodes = (nodes: Node[], s: Scope) => Promise<string>;

export interface RenderState {
  mrql: MrqlService;
  /** Renders nested nodes (the dispatcher of render.ts). */
  render: RenderNodes;
  principal?: Principal;
  stats?: Stats;
  lookups: Lookups;
  /** Distinct [mrql] queries allowed (0 = unlimited). */
  budget: number;
  cache: Map<string, Promise<unknown>>;
  deadline: number;
  /** API rendering fails on the deadline (500); page rendering shows an error box instead. */
  strict: boolean;
  warned: boolean;
  cssSeen: Set<string>;
  partials: Map<string, string | null>;
  /** Present on pages: [lazy] and [details] then defer their body to the browser. */
  sealer?: Sealer;
  /**
   * Public share pages (companion §5.9): no MRQL runs, [meta] prints its value read-only,
   * [reload] reloads the page.
   */
  restricted?: boolean;
  /** The plugin host's shortcode renderer; absent where plugins are not available. */
  plugins?: PluginShortcodes;
}

export class RenderDeadline extends Error {}

/** One [plugin:<plugin>:<name>] use, as the plugin host receives it (library-plugins.md §25). */
export interface PluginShortcodeCall {
  plugin: string;
  name: string;
  attrs: Record<string, string>;
  /** Source between the tags; "" for the inline form. */
  inner: string;
  isBlock: boolean;
  type: Entity;
  entity: Record<string, unknown>;
  principal?: Principal;
}

/** Renders plugin shortcodes; `reprocess` is false for markers, which are never expanded again. */
export interface PluginShortcodes {
  render(call: PluginShortcodeCall): Promise<{ html: string; reprocess: boolean }>;
  /** The documented shortcodes of the plugins this viewer may reach (companion §5.7). */
  docs(principal?: Principal): ShortcodeDoc[];
}

export interface EachFrame {
  value: unknown;
  index: number;
}

export interface Scope {
  ctx: EntityContext;
  state: RenderState;
  depth: number;
  each?: EachFrame;
  /** Inside a [reload] body (nested reload and lazy/details are refused there). */
  inReload?: boolean;
}

/** Expands every shortcode of `text` against the entity. */
export async function renderText(text: string, ctx: EntityContext, state: RenderState, depth = 0): Promise<string> {
  if (!text.includes('[')) return text;
  return state.render(parseShortcodes(text), { ctx, state, depth });
}

export function entityUrl(type: Entity, id: unknown): string {
  return `/${type}?id=${id}`;
}

/** The context entity's anchors, loading its group chain when needed. */
export async function anchorsOf(s: Scope): Promise<NonNullable<EntityContext['anchors']>> {
  if (s.ctx.anchors) return s.ctx.anchors;
  const base = Lookups.baseIds(s.ctx.type, [s.ctx.entity]);
  await s.state.lookups.loadChains(base);
  s.ctx.anchors = s.state.lookups.anchorsFor(s.ctx.type, s.ctx.entity);
  return s.ctx.anchors;
}

// What plugins add to every page (library-plugins.md §17, §20.2, §24): the Plugins menu, action
// buttons (action-buttons.tsx) and the injection slots. Each renderer of a slot runs in
// registration order (plugins in enable order) under its 5 s budget as the viewer; its string
// is inserted unescaped, anything else adds nothing, and a failure is logged and skipped
// without touching the other renderers.
import type { FastifyRequest } from 'fastify';
import { can, isScoped } from '../auth/principal.js';
import type { SafeHtml } from '../../core/html/jsx.js';
import type { LayoutPlugins, PageSlots, PluginActionTarget, PluginMenuItem } from '../ui/layout.js';
import { DetailActions, ListActions, placedActions } from './action-buttons.js';
import type { PluginCatalogue } from './catalogue.js';
import type { LoadedPlugin } from './manager.js';
import { callRender, LuaError } from './render-call.js';
import type { InjectionSlot } from './render-registry.js';

const EVERY_PAGE: InjectionSlot[] = ['head', 'page_top', 'sidebar_top', 'sidebar_bottom', 'page_bottom', 'scripts'];
const DETAIL_KEYS = ['resource', 'note', 'group', 'tag', 'category'] as const;

/** The slots the page at this path renders, and its entity on detail pages. */
function slotsOf(path: string): { slots: InjectionSlot[]; entityKey?: string } {
  const detail = /^\/(resource|note|group)$/.exec(path)?.[1];
  if (detail) return { slots: [...EVERY_PAGE, `${detail}_detail_before`, `${detail}_detail_after`, `${detail}_detail_sidebar`] as InjectionSlot[], entityKey: detail };
  const list = /^\/(resource|note|group)s$/.exec(path)?.[1];
  if (list) return { slots: [...EVERY_PAGE, `${list}_list_before`, `${list}_list_after`] as InjectionSlot[] };
  const other = /^\/([a-z]+)$/.exec(path)?.[1];
  return { slots: EVERY_PAGE, entityKey: (DETAIL_KEYS as readonly string[]).includes(other ?? '') ? other : undefined };
}

export class PluginInjections implements LayoutPlugins {
  constructor(
    private readonly catalogue: PluginCatalogue<LoadedPlugin>,
    private readonly log: (m: string) => void,
  ) {}

  menu(req: FastifyRequest): PluginMenuItem[] | null {
    if (!this.catalogue.available || !req.principal || req.principal.anonymous) return null;
    const items: PluginMenuItem[] = can(req.principal, 'system') ? [{ label: 'Manage Plugins', href: '/plugins/manage' }] : [];
    for (const p of this.catalogue.active()) {
      if (isScoped(req.principal) && !this.catalogue.openToScoped(p.name)) continue;
      for (const m of p.registry.menus) items.push({ label: m.label, href: `/plugins/${p.name}/${m.path}` });
    }
    return items;
  }

  actions(req: FastifyRequest, target: PluginActionTarget): SafeHtml | null {
    if (target.id !== undefined) return DetailActions({ actions: placedActions(this.catalogue, req.principal, target, 'detail'), id: target.id });
    // The bulk bar is rendered on resource and group lists only (§17.1).
    const bulk = target.entity === 'note' ? [] : placedActions(this.catalogue, req.principal, target, 'bulk');
    return ListActions({ card: placedActions(this.catalogue, req.principal, target, 'card'), bulk, rows: target.rows });
  }

  async slots(req: FastifyRequest): Promise<PageSlots> {
    if (!this.catalogue.available) return {};
    const plugins = this.catalogue.active().filter((p) => p.registry.render.injections.size > 0 && this.catalogue.reachableBy(req.principal, p.name));
    if (plugins.length === 0) return {};
    const path = req.url.split('?')[0];
    const { slots, entityKey } = slotsOf(path);
    const ctx: Record<string, unknown> = { path };
    if (entityKey) {
      const id = Number(new URLSearchParams(req.url.slice(path.length)).get('id'));
      ctx.entity_key = entityKey;
      ctx.entity_id = Number.isInteger(id) && id > 0 ? id : 0;
    }
    const abort = new AbortController();
    const onClose = () => abort.abort();
    req.raw.once('close', onClose);
    const out: Record<string, string> = {};
    try {
      for (const slot of slots) {
        let html = '';
        for (const p of plugins) {
          for (const fn of p.registry.render.injections.get(slot) ?? []) {
            if (abort.signal.aborted) break;
            try {
              const result = await callRender(fn, { ...ctx }, { entry: `injection ${slot}`, principal: req.principal, signal: abort.signal });
              if (typeof result === 'string') html += result;
            } catch (e) {
              if (!(e instanceof LuaError)) throw e;
              this.log(`plugins: ${e.message}`);
            }
          }
        }
        if (html) out[slot] = html;
      }
    } finally {
      req.raw.off('close', onClose);
    }
    return out;
  }
}

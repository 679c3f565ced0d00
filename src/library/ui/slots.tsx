// Carrier template slots on pages (companion §5.1, §5.2): shortcodes expanded on the server by
// the one engine, the result inserted unescaped (trusted authors), detail and card slots wrapped
// so Alpine sees the entity as `entity`. One render state per page shares the [mrql] budget.
import type { Principal } from '../auth/principal.js';
import type { Library } from '../context.js';
import type { Entity } from '../mrql/fields.js';
import type { Shortcodes, Slot } from '../templates/index.js';
import { CARRIER_TABLE } from '../templates/context.js';
import { h, raw, type SafeHtml } from '../../core/html/jsx.js';
import { CarrierSlotRepository, type CarrierTable } from './repository.js';
import { markdownHtml } from './markdown.js';
import { protectShortcodes } from '../templates/parse.js';

export type SlotHtml = Partial<Record<Slot, SafeHtml>>;

/**
 * A description on a detail page (companion §5.2 item 6): Markdown with mentions, then the
 * shortcodes expanded against the entity by the one engine (built-in and plugin ones alike).
 */
export async function describedHtml(shortcodes: Shortcodes, principal: Principal, type: Entity, entity: Record<string, unknown>, text: string, opts: { class?: string; empty?: string } = {}): Promise<SafeHtml> {
  if (text.trim() === '') return opts.empty ? <p class="empty">{opts.empty}</p> : raw('');
  const guarded = protectShortcodes(text);
  const html = markdownHtml(guarded.text).html;
  if (guarded.count === 0) return <div class={`markdown ${opts.class ?? ''}`.trim()}>{raw(html)}</div>;
  const expanded = await shortcodes.render(guarded.restore(html), { type, entity }, shortcodes.pageState(principal));
  // Like the carrier slots, the expanded markup sees the entity as Alpine's `entity`.
  return (
    <div class={`markdown ${opts.class ?? ''}`.trim()} x-data={`{ entity: ${JSON.stringify(entity)} }`}>
      {raw(expanded)}
    </div>
  );
}

/** CSS inside <style>: a "</style" in the text must not close the element early. */
export function styleText(css: string): SafeHtml {
  return raw(css.replace(/<\/(style)/gi, '<\\/$1'));
}

// The helpers below are called with the library by every content page; the lookups they
// need are two fields over its database, built where they are used.
const carrierSlots = (lib: Library) => new CarrierSlotRepository(lib.db, lib.dialect);

/** The entity's slots for its detail page; missing or empty slots are absent. */
export async function pageSlots(shortcodes: Shortcodes, principal: Principal, type: Entity, entity: Record<string, unknown>, slots: Exclude<Slot, 'custom_css'>[]): Promise<SlotHtml> {
  const out: SlotHtml = {};
  const state = shortcodes.pageState(principal);
  for (const slot of slots) {
    const html = await shortcodes.carrierSlot(type, entity, slot, state);
    if (html === '') continue;
    out[slot] = (
      <div class={`custom-slot ${slot.replace(/_/g, '-')}`} x-data={`{ entity: ${JSON.stringify(entity)} }`}>
        {raw(html)}
      </div>
    );
  }
  return out;
}

/** The raw CustomCSS of a carrier (CSS is not shortcode text: `a[href]` is a selector). */
export async function carrierCss(lib: Library, type: Entity, carrierId: number | null | undefined): Promise<SafeHtml | null> {
  if (!carrierId) return null;
  const css = await carrierSlots(lib).css(CARRIER_TABLE[type] as CarrierTable, carrierId);
  return css !== undefined && css.trim() !== '' ? <style>{styleText(css)}</style> : null;
}

/** List header and footer of a list filtered to exactly one carrier, and its CSS. */
export async function listSlots(lib: Library, shortcodes: Shortcodes, principal: Principal, type: Entity, carrierId: number | undefined): Promise<{ header?: SafeHtml; footer?: SafeHtml; css?: SafeHtml }> {
  if (!carrierId) return {};
  const row = await carrierSlots(lib).listSlots(CARRIER_TABLE[type] as CarrierTable, carrierId);
  if (!row) return {};
  const state = shortcodes.pageState(principal);
  const carrier = { ID: row.id, Name: row.name, Description: row.description };
  const header = await shortcodes.listSlot(type, carrier, row.custom_list_header, state);
  const footer = await shortcodes.listSlot(type, carrier, row.custom_list_footer, state);
  return {
    header: header ? <div class="custom-list-header">{raw(header)}</div> : undefined,
    footer: footer ? <div class="custom-list-footer">{raw(footer)}</div> : undefined,
    css: row.custom_css.trim() !== '' ? <style>{styleText(row.custom_css)}</style> : undefined,
  };
}

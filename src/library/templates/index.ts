// Entry points of the shortcode engine for the rest of the library: render=1 on MRQL results,
// and a carrier's Custom* slot for an entity on detail and list pages.
import { CompiledQuery, type Kysely } from 'kysely';
import type { Principal } from '../auth/principal.js';
import type { Entity } from '../mrql/fields.js';
import type { MrqlService } from '../mrql/service.js';
import { Binds, finish } from '../mrql/sql.js';
import { CARRIER_TABLE, carrierIdOf } from './context.js';
import { renderResult } from './mrql.js';
import { newRenderState, renderShortcodes, type RenderState } from './render.js';

/** Makes `POST /v1/mrql?render=1` fill renderedHTML through this engine. */
export function installMrqlRenderer(svc: MrqlService): void {
  svc.renderer = (result, principal) => renderResult(result, newRenderState(svc, principal, undefined, true));
}

export type Slot =
  | 'custom_header'
  | 'custom_sidebar'
  | 'custom_detail_footer'
  | 'custom_summary'
  | 'custom_avatar'
  | 'custom_hover_card'
  | 'custom_list_header'
  | 'custom_list_footer'
  | 'custom_mrql_result'
  | 'custom_css'
  | 'custom_own_entities'
  | 'custom_preview'
  | 'custom_lightbox'
  | 'custom_cell';

/**
 * Renders one Custom* slot of the entity's carrier with its shortcodes expanded (companion §5.2).
 * `entity` is the entity's API record (ID, Meta, OwnerId, CategoryId / ResourceCategoryId /
 * NoteTypeId …). Pass the same `state` for every slot of one page so the [mrql] budget and cache
 * are shared. Returns "" when the carrier has no such slot text.
 */
export async function renderCarrierSlot(
  svc: MrqlService,
  type: Entity,
  entity: Record<string, unknown>,
  slot: Slot,
  state: RenderState = newRenderState(svc),
): Promise<string> {
  const id = carrierIdOf({ type, entity });
  if (id === null) return '';
  const b = new Binds(svc.lib.kind);
  const st = finish('slot', `SELECT ${slot} AS slot, meta_schema FROM ${CARRIER_TABLE[type]} WHERE id = ${b.p(id)}`, b);
  let row: Record<string, unknown> | undefined;
  try {
    row = (await (svc.lib.db as unknown as Kysely<unknown>).executeQuery(CompiledQuery.raw(st.sql, st.params))).rows[0] as Record<string, unknown> | undefined;
  } catch {
    return ''; // this carrier kind has no such slot
  }
  const text = String(row?.slot ?? '');
  if (text.trim() === '') return '';
  return renderShortcodes(text, { type, entity, metaSchema: String(row?.meta_schema ?? '') }, state);
}

export { newRenderState, renderShortcodes };
export type { RenderState };
export type { Principal };

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
import { Type } from '@sinclair/typebox';
import { HttpError, badRequest } from '../../core/http/errors.js';
import type { LibraryRoutes } from '../http/routes.js';
import { Lookups } from './context.js';
import { Sealer } from './deferred.js';

const sealers = new WeakMap<MrqlService, Sealer>();

/**
 * Installs the shortcode engine: `POST /v1/mrql?render=1` fills renderedHTML through it, and
 * `POST /v1/shortcodes/deferred` renders the sealed bodies of [lazy] and [details].
 */
export function installShortcodes(svc: MrqlService, routes: LibraryRoutes): void {
  const sealer = new Sealer(svc.lib.config.templateSigningKey);
  sealers.set(svc, sealer);
  svc.renderer = (result, principal) => renderResult(result, newRenderState(svc, principal, undefined, true));
  routes.add({
    method: 'POST',
    path: '/v1/shortcodes/deferred',
    tag: 'templates',
    summary: 'Render the body of a deferred [lazy] or [details] shortcode from its sealed token',
    needs: 'read',
    input: Type.Object({ token: Type.Optional(Type.String()) }),
    handler: async ({ req, input }) => {
      const payload = sealer.open(input.token ?? '');
      if (!payload) throw badRequest('invalid shortcode token');
      // The entity is reloaded under the caller's scope: a token never widens what one may see.
      const result = await svc.engine.execute(`type = ${payload.type} AND id = $id`, { params: { id: payload.id }, principal: req.principal });
      const list = 'mode' in result ? [] : payload.type === 'resource' ? result.resources : payload.type === 'note' ? result.notes : result.groups;
      if (list.length === 0) throw new HttpError(404, 'not found');
      const state = pageRenderState(svc, req.principal);
      await state.lookups.loadChains(Lookups.baseIds(payload.type, list));
      const html = await renderShortcodes(payload.body, { type: payload.type, entity: list[0], anchors: state.lookups.anchorsFor(payload.type, list[0]) }, state);
      return { html };
    },
  });
}

/** A render state for a page: shared budget and cache, and deferred [lazy]/[details]. */
export function pageRenderState(svc: MrqlService, principal?: Principal): RenderState {
  const state = newRenderState(svc, principal);
  state.sealer = sealers.get(svc);
  return state;
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
  state: RenderState = pageRenderState(svc),
): Promise<string> {
  const id = carrierIdOf({ type, entity });
  if (id === null) return '';
  const b = new Binds(svc.lib.dialect.kind);
  const st = finish('slot', `SELECT ${slot} AS slot, meta_schema FROM ${CARRIER_TABLE[type]} WHERE id = ${b.p(id)}`, b);
  let row: Record<string, unknown> | undefined;
  try {
    row = (await (svc.lib.db as unknown as Kysely<unknown>).executeQuery(CompiledQuery.raw(st.sql, st.params))).rows[0] as Record<string, unknown> | undefined;
  } catch {
    return ''; // this carrier kind has no such slot
  }
  const text = String(row?.slot ?? '');
  if (text.trim() === '') return '';
  const html = await renderShortcodes(text, { type, entity, metaSchema: String(row?.meta_schema ?? '') }, state);
  // A slot holding a [reload] button becomes a region the button can re-render on its own.
  const entityId = entity.ID;
  if (state.sealer && html.includes('data-shortcode-reload') && typeof entityId === 'number') {
    const token = state.sealer.seal({ body: text, type, id: entityId });
    return `<div class="shortcode-region" data-shortcode-region="${token}" style="display:contents">${html}</div>`;
  }
  return html;
}

/**
 * A carrier's list header or footer (companion §5.2 item 4): rendered with the carrier itself
 * as the entity, [mrql] unscoped.
 */
export async function renderListSlot(svc: MrqlService, type: Entity, carrier: Record<string, unknown>, text: string, state: RenderState): Promise<string> {
  if (text.trim() === '') return '';
  return renderShortcodes(text, { type, entity: { Meta: {}, ...carrier }, globalScope: true }, state);
}

/** A note type's CustomHeader on a public share page, in restricted mode (companion §5.9). */
export async function renderShareSlot(svc: MrqlService, entity: Record<string, unknown>, text: string, metaSchema: string): Promise<string> {
  if (text.trim() === '') return '';
  const state = newRenderState(svc);
  state.restricted = true;
  return renderShortcodes(text, { type: 'note', entity, metaSchema }, state);
}

export { newRenderState, renderShortcodes };
export type { RenderState };
export type { Principal };

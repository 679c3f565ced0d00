// The shortcode engine as the rest of the library sees it: render=1 on MRQL results, a
// carrier's Custom* slots on detail and list pages, share pages, and the deferred
// [lazy]/[details] bodies. Built once by templates/feature.ts.
import { HttpError, badRequest } from '../../core/http/errors.js';
import type { Principal } from '../auth/principal.js';
import type { Entity } from '../mrql/fields.js';
import type { MrqlService } from '../mrql/service.js';
import type { MrqlResult, Stats } from '../mrql/types.js';
import { carrierIdOf, Lookups, type EntityContext } from './context.js';
import type { Sealer } from './deferred.js';
import { renderResult } from './mrql.js';
import { newRenderState } from './render.js';
import { CARRIER_SLOTS, type Slot, type TemplateRepository } from './repository.js';
import { renderText, type PluginShortcodeCall, type PluginShortcodes, type RenderState } from './state.js';
import { BUILTIN_SHORTCODES, type ShortcodeDoc } from './docs.js';

export type { EntityContext, ShortcodeDoc, PluginShortcodeCall, PluginShortcodes, RenderState, Slot };

export class Shortcodes {
  constructor(
    private readonly mrql: MrqlService,
    private readonly repo: TemplateRepository,
    private readonly sealer: Sealer,
    /** The plugin host's shortcode renderer (absent in tools that run without plugins). */
    private readonly plugins?: PluginShortcodes,
  ) {}

  /** The catalogue of GET /v1/shortcodes/docs: built-ins, then the reachable plugins' shortcodes. */
  docs(principal?: Principal): ShortcodeDoc[] {
    return [...BUILTIN_SHORTCODES, ...(this.plugins?.docs(principal) ?? [])];
  }

  /** A render state for an API response or a preview: [lazy] and [details] render inline. */
  state(principal?: Principal, stats?: Stats, strict = false): RenderState {
    return newRenderState(this.mrql, new Lookups(this.repo, stats), { principal, stats, strict, plugins: this.plugins });
  }

  /** A render state for a page: one budget and cache for all its slots, deferred [lazy]/[details]. */
  pageState(principal?: Principal): RenderState {
    return newRenderState(this.mrql, new Lookups(this.repo), { principal, sealer: this.sealer, plugins: this.plugins });
  }

  /** Expands every shortcode of `text` against the entity. */
  render(text: string, ctx: EntityContext, state: RenderState): Promise<string> {
    return renderText(text, ctx, state);
  }

  /** render=1: fills renderedHTML on the result's entities (§16); fails on the deadline. */
  renderResult(result: MrqlResult, principal: Principal | undefined): Promise<void> {
    return renderResult(result, this.state(principal, undefined, true));
  }

  /**
   * Renders one Custom* slot of the entity's carrier with its shortcodes expanded (companion §5.2).
   * `entity` is the entity's API record (ID, Meta, OwnerId, CategoryId / ResourceCategoryId /
   * NoteTypeId …). Pass the same `state` for every slot of one page so the [mrql] budget and cache
   * are shared. Returns "" when the carrier has no such slot text.
   */
  async carrierSlot(type: Entity, entity: Record<string, unknown>, slot: Slot, state: RenderState = this.pageState()): Promise<string> {
    const id = carrierIdOf({ type, entity });
    if (id === null || !(CARRIER_SLOTS[type] as readonly string[]).includes(slot)) return '';
    const row = await this.repo.slot(type, id, slot);
    const text = String(row?.slot ?? '');
    if (text.trim() === '') return '';
    const html = await renderText(text, { type, entity, metaSchema: String(row?.meta_schema ?? '') }, state);
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
  async listSlot(type: Entity, carrier: Record<string, unknown>, text: string, state: RenderState): Promise<string> {
    if (text.trim() === '') return '';
    return renderText(text, { type, entity: { Meta: {}, ...carrier }, globalScope: true }, state);
  }

  /** A note type's CustomHeader on a public share page, in restricted mode (companion §5.9). */
  async shareSlot(entity: Record<string, unknown>, text: string, metaSchema: string): Promise<string> {
    if (text.trim() === '') return '';
    const state = newRenderState(this.mrql, new Lookups(this.repo), { restricted: true });
    return renderText(text, { type: 'note', entity, metaSchema }, state);
  }

  /**
   * The body of a deferred [lazy]/[details] (or a [reload] region) from its sealed token. The
   * entity is reloaded under the caller's scope: a token never widens what one may see.
   */
  async deferred(token: string, principal: Principal): Promise<{ html: string }> {
    const payload = this.sealer.open(token);
    if (!payload) throw badRequest('invalid shortcode token');
    const result = await this.mrql.engine.execute(`type = ${payload.type} AND id = $id`, { params: { id: payload.id }, principal });
    const list = 'mode' in result ? [] : payload.type === 'resource' ? result.resources : payload.type === 'note' ? result.notes : result.groups;
    if (list.length === 0) throw new HttpError(404, 'not found');
    const state = this.pageState(principal);
    await state.lookups.loadChains(Lookups.baseIds(payload.type, list));
    const html = await renderText(payload.body, { type: payload.type, entity: list[0], anchors: state.lookups.anchorsFor(payload.type, list[0]) }, state);
    return { html };
  }
}

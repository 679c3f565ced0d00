// What a plugin registered for rendering (library-plugins.md §22–§25): shortcodes, block types,
// display types and injections. Part of the plugin's registry, dropped whole on disable.
import type { LuaFunctionRef } from '../../core/lua/index.js';

export interface ShortcodeEntry {
  name: string;
  label: string;
  description: string;
  attrs: unknown[];
  examples: unknown[];
  notes: string[];
  render: LuaFunctionRef;
}

export interface BlockTypeFilters {
  note_type_ids?: number[];
  category_ids?: number[];
}

export interface BlockTypeEntry {
  type: string;
  label: string;
  icon: string;
  description: string;
  /** JSON Schema objects; null = accept anything. */
  contentSchema: unknown;
  stateSchema: unknown;
  /** JSON values; null when not registered. */
  defaultContent: unknown;
  defaultState: unknown;
  filters: BlockTypeFilters;
  renderView: LuaFunctionRef;
  renderEdit: LuaFunctionRef;
}

export interface DisplayTypeEntry {
  type: string;
  label: string;
  render: LuaFunctionRef;
}

/** The 21 page slots of §24, in the spec's order. */
export const INJECTION_SLOTS = [
  'head',
  'page_top',
  'sidebar_top',
  'sidebar_bottom',
  'page_bottom',
  'scripts',
  'resource_detail_before',
  'resource_detail_after',
  'resource_detail_sidebar',
  'note_detail_before',
  'note_detail_after',
  'note_detail_sidebar',
  'group_detail_before',
  'group_detail_after',
  'group_detail_sidebar',
  'resource_list_before',
  'resource_list_after',
  'note_list_before',
  'note_list_after',
  'group_list_before',
  'group_list_after',
] as const;

export type InjectionSlot = (typeof INJECTION_SLOTS)[number];

export class RenderRegistry {
  /** Registration order is kept (docs pages list shortcodes in it). */
  readonly shortcodes = new Map<string, ShortcodeEntry>();
  readonly blockTypes = new Map<string, BlockTypeEntry>();
  readonly displayTypes = new Map<string, DisplayTypeEntry>();
  readonly injections = new Map<InjectionSlot, LuaFunctionRef[]>();

  inject(slot: InjectionSlot, fn: LuaFunctionRef): void {
    const list = this.injections.get(slot) ?? [];
    list.push(fn);
    this.injections.set(slot, list);
  }

  release(): void {
    for (const s of this.shortcodes.values()) s.render.release();
    for (const b of this.blockTypes.values()) {
      b.renderView.release();
      b.renderEdit.release();
    }
    for (const d of this.displayTypes.values()) d.render.release();
    for (const list of this.injections.values()) for (const f of list) f.release();
    this.shortcodes.clear();
    this.blockTypes.clear();
    this.displayTypes.clear();
    this.injections.clear();
  }
}

// Plugin shortcodes (library-plugins.md §25): [plugin:<plugin>:<name> …] wherever the shortcode
// engine runs with plugins (descriptions, carrier templates, MRQL render=1). The engine expands
// successful output again; markers are final. A viewer who may not reach the plugin gets the
// same comment as a context without plugins, so a page does not reveal which plugins exist.
import type { Principal } from '../auth/principal.js';
import type { PluginShortcodeCall, PluginShortcodes, ShortcodeDoc } from '../templates/index.js';
import type { PluginCatalogue } from './catalogue.js';
import type { ShortcodeEntry } from './render-registry.js';
import { callRender, LuaError, luaTypeName, renderErrorText, settingsTable } from './render-call.js';

const UNAVAILABLE = { html: '<!-- mr:plugin unavailable in this context -->', reprocess: false };
const CREDENTIAL = /token|hash|csrf|password|secret/i;

function escapeAttr(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** The failure marker of companion §5.2 item 7; never expanded again. */
export function shortcodeMarker(full: string, error: string): { html: string; reprocess: false } {
  return { html: `<span class="shortcode-error" title="${escapeAttr(error)}">⚠ ${escapeAttr(full)}</span>`, reprocess: false };
}

/** The entity's scalar fields under their API names, Meta as JSON text, no credentials (§25, §26.3). */
export function entityTable(entity: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entity)) {
    if (CREDENTIAL.test(k)) continue;
    if (k === 'Meta') out.Meta = typeof v === 'string' ? v : JSON.stringify(v ?? {});
    else if (v instanceof Date) out[k] = v.toISOString();
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

function metaTable(entity: Record<string, unknown>): unknown {
  const meta = entity.Meta;
  if (typeof meta === 'string') {
    try {
      const parsed = JSON.parse(meta) as unknown;
      return parsed !== null && typeof parsed === 'object' ? parsed : {};
    } catch {
      return {};
    }
  }
  return meta !== null && typeof meta === 'object' ? meta : {};
}

const textOf = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
const fieldOf = (o: unknown, key: string): unknown => (o !== null && typeof o === 'object' && !Array.isArray(o) ? (o as Record<string, unknown>)[key] : undefined);

/** A plugin shortcode in the catalogue's shape; its documentation fields are the §10.8 ones. */
function shortcodeDoc(plugin: string, s: ShortcodeEntry): ShortcodeDoc {
  const full = `plugin:${plugin}:${s.name}`;
  const attrs = s.attrs.flatMap((a) => {
    const name = textOf(fieldOf(a, 'name'));
    if (!name) return [];
    const type = textOf(fieldOf(a, 'type'));
    const dflt = textOf(fieldOf(a, 'default'));
    const description = textOf(fieldOf(a, 'description'));
    return [{ name, required: fieldOf(a, 'required') === true, ...(type ? { type } : {}), ...(dflt !== undefined ? { default: dflt } : {}), ...(description ? { description } : {}) }];
  });
  const examples = s.examples.flatMap((e) => {
    const code = textOf(fieldOf(e, 'code'));
    if (!code) return [];
    const title = textOf(fieldOf(e, 'title'));
    const notes = textOf(fieldOf(e, 'notes'));
    return [{ code, ...(title ? { title } : {}), ...(notes ? { notes } : {}) }];
  });
  // A plugin shortcode may be used with or without a body (§25).
  return { name: full, syntax: `[${full}]`, description: s.description, isBlock: 'optional', source: 'plugin', attrs, examples };
}

export class PluginShortcodeRenderer implements PluginShortcodes {
  constructor(
    private readonly catalogue: PluginCatalogue,
    private readonly log: (message: string) => void,
  ) {}

  /**
   * The shortcodes with a description (§25) of the loaded plugins this viewer may reach, in
   * enable then registration order; a viewer kept out of a plugin does not learn it exists.
   */
  docs(principal?: Principal): ShortcodeDoc[] {
    if (!this.catalogue.available) return [];
    return this.catalogue
      .active()
      .filter((p) => this.catalogue.reachableBy(principal, p.name))
      .flatMap((p) => [...p.registry.render.shortcodes.values()].filter((s) => s.description !== '').map((s) => shortcodeDoc(p.name, s)));
  }

  async render(call: PluginShortcodeCall & { preview?: boolean }): Promise<{ html: string; reprocess: boolean }> {
    if (!this.catalogue.available || !this.catalogue.reachableBy(call.principal, call.plugin)) return UNAVAILABLE;
    const full = `plugin:${call.plugin}:${call.name}`;
    const plugin = this.catalogue.get(call.plugin);
    const entry = plugin?.registry.render.shortcodes.get(call.name);
    if (!plugin || !entry) return shortcodeMarker(full, `shortcode "${full}" not found`);
    const id = call.entity.ID;
    const ctx: Record<string, unknown> = {
      entity_type: call.type,
      entity_id: typeof id === 'number' ? id : 0,
      value: metaTable(call.entity),
      attrs: call.attrs,
      settings: settingsTable(plugin),
      inner_content: call.inner,
      is_block: call.isBlock,
    };
    if (typeof id === 'number' && id > 0) ctx.entity = entityTable(call.entity);
    if (call.preview) ctx.preview = true;
    try {
      const result = await callRender(entry.render, ctx, { entry: `shortcode ${full}`, principal: call.principal });
      if (typeof result !== 'string') return shortcodeMarker(full, `shortcode "${full}" must return a string, got ${luaTypeName(result)}`);
      return { html: result, reprocess: true };
    } catch (e) {
      if (!(e instanceof LuaError)) throw e;
      this.log(`plugins: ${e.message}`);
      return shortcodeMarker(full, `shortcode "${full}" failed: ${renderErrorText(e)}`);
    }
  }
}

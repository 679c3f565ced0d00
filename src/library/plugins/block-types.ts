// Plugin block types (library-plugins.md §22): the types as the block rules use them (schemas,
// defaults, filters), their listing entries, and GET /v1/plugins/<plugin>/block/render, which
// runs render_view or render_edit for one stored block and answers the plugin's HTML.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, HttpError } from '../../core/http/errors.js';
import type { BlockNoteFacts, NoteFacts, PluginBlockType, PluginBlockTypes } from '../blocks/plugin-types.js';
import type { Principal } from '../auth/principal.js';
import type { BlockRecord, JsonObject } from '../blocks/records.js';
import { blockRecord } from '../blocks/records.js';
import type { BlockService } from '../blocks/service.js';
import { actorOf, seenBy } from '../http/routes.js';
import { compileMetaSchema } from '../meta/schema.js';
import type { NoteService } from '../notes/service.js';
import type { CataloguedPlugin, PluginCatalogue } from './catalogue.js';
import { callRender, LuaError, renderErrorText, settingsTable, type RenderCall } from './render-call.js';
import type { BlockTypeEntry } from './render-registry.js';

function objectOrEmpty(v: unknown): JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? structuredClone(v as JsonObject) : {};
}

function check(schema: unknown, value: JsonObject, field: 'content' | 'state', type: string): JsonObject {
  if (schema === null) return value;
  const validate = compileMetaSchema(JSON.stringify(schema));
  if (validate && !validate(value)) {
    const why = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`).join('; ');
    throw badRequest(`${field} does not match the ${field} schema of block type "${type}": ${why}`);
  }
  return value;
}

function admits(filters: BlockTypeEntry['filters'], note: NoteFacts): boolean {
  const types = filters.note_type_ids ?? [];
  const cats = filters.category_ids ?? [];
  const typeOk = types.length === 0 || (note.noteTypeId !== null && types.includes(note.noteTypeId));
  const catOk = cats.length === 0 || (note.ownerCategoryId !== null && cats.includes(note.ownerCategoryId));
  return typeOk && catOk;
}

function asBlockType(plugin: CataloguedPlugin, e: BlockTypeEntry): PluginBlockType {
  const type = `plugin:${plugin.name}:${e.type}`;
  return {
    type,
    defaultContent: () => objectOrEmpty(e.defaultContent),
    defaultState: () => objectOrEmpty(e.defaultState),
    content: async (raw) => check(e.contentSchema, raw, 'content', type),
    state: (raw) => check(e.stateSchema, raw, 'state', type),
    admits: (note) => admits(e.filters, note),
  };
}

/** Runs render_view or render_edit for one block (§22.3 context); throws LuaError on failure. */
async function runBlockRender(plugin: CataloguedPlugin, entry: BlockTypeEntry, block: BlockRecord, note: BlockNoteFacts, mode: 'view' | 'edit', call: RenderCall): Promise<string> {
  const ctx = {
    block: { id: block.id, content: objectOrEmpty(block.content), state: objectOrEmpty(block.state), position: block.position },
    note: { id: note.id, name: note.name, note_type_id: note.noteTypeId ?? 0 },
    settings: settingsTable(plugin),
  };
  const result = await callRender(mode === 'view' ? entry.renderView : entry.renderEdit, ctx, call);
  return typeof result === 'string' ? result : '';
}

function escapeText(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export class PluginBlockTypeSource implements PluginBlockTypes {
  constructor(
    private readonly catalogue: PluginCatalogue,
    private readonly log: (m: string) => void,
  ) {}

  async renderViews(blocks: BlockRecord[], note: BlockNoteFacts, principal: Principal | undefined): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (!this.catalogue.available) return out;
    for (const b of blocks) {
      const m = /^plugin:([^:]+):(.+)$/.exec(b.type);
      const plugin = m ? this.catalogue.get(m[1]) : undefined;
      const entry = m && plugin?.registry.render.blockTypes.get(m[2]);
      if (!m || !plugin || !entry) continue;
      if (!this.catalogue.reachableBy(principal, plugin.name)) {
        out.set(b.id, '<p class="empty plugin-missing">This block is not available to your account.</p>');
        continue;
      }
      try {
        out.set(b.id, await runBlockRender(plugin, entry, b, note, 'view', { entry: `block view ${b.type}`, principal }));
      } catch (e) {
        if (!(e instanceof LuaError)) throw e;
        this.log(`plugins: ${e.message}`);
        out.set(b.id, `<p class="shortcode-error">block render error: ${escapeText(renderErrorText(e))}</p>`);
      }
    }
    return out;
  }

  listing(note?: NoteFacts): Record<string, unknown>[] {
    if (!this.catalogue.available) return [];
    return this.catalogue.active().flatMap((p) =>
      [...p.registry.render.blockTypes.values()].map((e) => ({
        type: `plugin:${p.name}:${e.type}`,
        defaultContent: e.defaultContent ?? null,
        defaultState: e.defaultState ?? null,
        label: e.label,
        icon: e.icon,
        description: e.description,
        plugin: true,
        pluginName: p.name,
        filters: e.filters,
        ...(note ? { allowed: admits(e.filters, note) } : {}),
      })),
    );
  }

  find(type: string): PluginBlockType | undefined {
    const m = /^plugin:([^:]+):(.+)$/.exec(type);
    if (!m || !this.catalogue.available) return undefined;
    const plugin = this.catalogue.get(m[1]);
    const entry = plugin?.registry.render.blockTypes.get(m[2]);
    return plugin && entry ? asBlockType(plugin, entry) : undefined;
  }
}

function text(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(body);
}

export interface BlockRenderDeps {
  catalogue: PluginCatalogue;
  blocks: BlockService;
  notes: NoteService;
  log: (m: string) => void;
}

export function registerBlockRenderRoute(app: FastifyInstance, deps: BlockRenderDeps): void {
  app.get('/v1/plugins/:plugin/block/render', { config: { needs: 'read' } }, (req, reply) => renderBlock(req, reply, deps));
}

async function renderBlock(req: FastifyRequest, reply: FastifyReply, deps: BlockRenderDeps): Promise<FastifyReply> {
  const { catalogue } = deps;
  const name = (req.params as { plugin: string }).plugin;
  const q = req.query as Record<string, unknown>;
  if (!catalogue.available) return text(reply, 503, 'plugins not available');
  if (!catalogue.reachableBy(req.principal, name)) return text(reply, 403, 'this plugin is not available to group-limited accounts');
  const blockId = Number(q.blockId ?? 0);
  if (!Number.isInteger(blockId) || blockId <= 0) return text(reply, 400, 'blockId required');
  const mode = q.mode;
  if (mode !== 'view' && mode !== 'edit') return text(reply, 400, "mode must be 'view' or 'edit'");
  const row = await deps.blocks.find(blockId);
  if (!row) return text(reply, 404, 'block not found');
  if (!row.type.startsWith(`plugin:${name}:`)) return text(reply, 400, 'block type does not belong to this plugin');
  let note;
  try {
    note = await deps.notes.named.require(row.note_id, seenBy(req));
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return text(reply, 404, 'note not found');
    throw e;
  }
  const plugin = catalogue.get(name);
  const entry = plugin?.registry.render.blockTypes.get(row.type.slice(`plugin:${name}:`.length));
  if (!plugin || !entry) return text(reply, 500, `block type "${row.type}" not found`);
  const block = blockRecord(row);
  const abort = new AbortController();
  req.raw.once('close', () => {
    if (!reply.sent) abort.abort();
  });
  try {
    const html = await runBlockRender(plugin, entry, block, { id: note.id, name: note.name, noteTypeId: note.note_type_id ?? null }, mode, {
      entry: `block ${mode} ${row.type}`,
      principal: req.principal,
      origin: actorOf(req).origin,
      signal: abort.signal,
    });
    return reply.code(200).type('text/html; charset=utf-8').send(html);
  } catch (e) {
    if (!(e instanceof LuaError)) throw e;
    deps.log(`plugins: ${e.message}`);
    return text(reply, 500, `block render error: ${renderErrorText(e)}`);
  }
}

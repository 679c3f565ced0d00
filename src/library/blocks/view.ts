// What a block needs beyond its own record to be shown: the resources of gallery blocks, the
// groups of reference blocks, and the rows of tables (query-backed tables run their query).
// Everything is loaded for a whole note at once: one statement per kind, not one per block.
import { PLUGIN_BLOCK_PREFIX, type BlockNoteFacts, type PluginBlockTypes } from './plugin-types.js';
import type { Principal } from '../auth/principal.js';
import { visibilityOf } from '../auth/visibility.js';
import type { BlockRecord, BlockRow, JsonObject } from './records.js';
import { runTableQuery, type SavedQueryRunner } from './table.js';
import type { BlockViewRepository } from './view.repository.js';

export interface GalleryItem {
  id: number;
  name: string;
  hash: string;
  contentType: string;
}

export interface GroupRef {
  id: number;
  name: string;
  description: string;
  category: string | null;
}

export interface TableView {
  columns: { id: string; label: string }[];
  rows: Record<string, unknown>[];
  /** Set for query-backed tables. */
  queryId?: number;
  cachedAt?: string;
  error?: string;
}

export interface BlockViewData {
  resources: Map<number, GalleryItem>;
  groups: Map<number, GroupRef>;
  tables: Map<number, TableView>;
  /** Plugin blocks' HTML (library-plugins.md §22); a block of a type not loaded is absent. */
  plugins: Map<number, string>;
}

function idsOf(blocks: BlockRecord[], type: string, key: string): number[] {
  const out = new Set<number>();
  for (const b of blocks) {
    if (b.type !== type) continue;
    const list = b.content[key];
    if (Array.isArray(list)) for (const id of list) if (typeof id === 'number') out.add(id);
  }
  return [...out];
}

/** Static table columns may be plain strings or {id, label}. */
export function staticColumns(content: JsonObject): { id: string; label: string }[] {
  const cols = Array.isArray(content.columns) ? content.columns : [];
  return cols.map((c) => (typeof c === 'string' ? { id: c, label: c } : { id: String((c as JsonObject).id), label: String((c as JsonObject).label ?? (c as JsonObject).id) }));
}

export class BlockViews {
  constructor(
    private readonly repo: BlockViewRepository,
    private readonly queries: SavedQueryRunner,
    private readonly pluginTypes?: PluginBlockTypes,
  ) {}

  /** Everything the blocks of one note need to be shown. */
  async load(blocks: BlockRecord[], principal: Principal, note?: BlockNoteFacts): Promise<BlockViewData> {
    const vis = visibilityOf(principal);
    const hasPlugin = blocks.some((b) => b.type.startsWith(PLUGIN_BLOCK_PREFIX));
    const plugins = hasPlugin && note && this.pluginTypes ? await this.pluginTypes.renderViews(blocks, note, principal) : new Map<number, string>();
    const [resources, groups] = await Promise.all([this.repo.galleryResources(idsOf(blocks, 'gallery', 'resourceIds'), vis), this.repo.referencedGroups(idsOf(blocks, 'references', 'groupIds'), vis)]);
    const tables = new Map<number, TableView>();
    for (const b of blocks) {
      if (b.type !== 'table') continue;
      if (typeof b.content.queryId !== 'number') {
        tables.set(b.id, { columns: staticColumns(b.content), rows: (Array.isArray(b.content.rows) ? b.content.rows : []) as Record<string, unknown>[] });
        continue;
      }
      try {
        const row = { id: b.id, type: b.type, content: JSON.stringify(b.content) } as BlockRow;
        const data = await runTableQuery(this.queries, principal, row, {});
        tables.set(b.id, { columns: data.columns, rows: data.rows, queryId: data.queryId, cachedAt: data.cachedAt });
      } catch (e) {
        tables.set(b.id, { columns: [], rows: [], queryId: b.content.queryId, error: (e as Error).message });
      }
    }
    return {
      resources: new Map(resources.map((r) => [r.id, { id: r.id, name: r.name, hash: r.hash, contentType: r.content_type }])),
      groups: new Map(groups.map((g) => [g.id, { id: g.id, name: g.name, description: g.description, category: g.category ?? null }])),
      tables,
      plugins,
    };
  }
}

// Block types that plugins register (library-plugins.md §22) as the block rules see them: the
// plugin host implements this; the block service only asks for a type by name and whether its
// filters admit a note. Names are `plugin:<plugin>:<type>`.
import type { Principal } from '../auth/principal.js';
import type { BlockRecord } from './records.js';
import type { BlockType } from './types.js';

/** What a block-type filter looks at (§22.2). */
export interface NoteFacts {
  noteTypeId: number | null;
  /** The category of the note's owning group; null when unowned or uncategorised. */
  ownerCategoryId: number | null;
}

export interface PluginBlockType extends BlockType {
  admits(note: NoteFacts): boolean;
}

export interface PluginBlockTypes {
  /** Listing entries of every loaded plugin type; `allowed` only when a note is given. */
  listing(note?: NoteFacts): Record<string, unknown>[];
  /** The loaded type, or undefined (plugin disabled, unknown type). */
  find(type: string): PluginBlockType | undefined;
  /**
   * render_view HTML of each plugin block whose type is loaded (keyed by block id), rendered as
   * the principal; a failed render holds an error notice instead.
   */
  renderViews(blocks: BlockRecord[], note: BlockNoteFacts, principal: Principal | undefined): Promise<Map<number, string>>;
}

/** The owning note as a block render sees it (§22.3 ctx.note). */
export interface BlockNoteFacts {
  id: number;
  name: string;
  noteTypeId: number | null;
}

export const PLUGIN_BLOCK_PREFIX = 'plugin:';

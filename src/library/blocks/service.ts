// Block rules (contract: Note blocks; companion §12.3): typed content and state checked on every
// write, fractional positions (append when omitted, explicit reorder, automatic rebalance once a
// key grows past REBALANCE_LENGTH), the noteId ownership guard, and the note description kept in
// step with the first text block.
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { Actor } from '../auth/principal.js';
import { SEE_ALL, visibilityOf, type Visibility } from '../auth/visibility.js';
import type { Tx } from '../../core/db/repository.js';
import { withChange } from '../common/changes.js';
import { firstMissing, type NamedDeps } from '../common/named.js';
import type { Database } from '../schema/database.js';
import { mirrorDescription, writeDescriptionToFirstTextBlock } from './description.js';
import { evenlySpaced, isValidPosition, needsRebalance, positionAfter } from './positions.js';
import { blockRecord, type BlockRecord, type BlockRow, type JsonObject } from './records.js';
import type { BlockRepository } from './repository.js';
import { isObject } from './shape.js';
import { blockType, builtInTypes, type BlockType, type RefChecker } from './types.js';
import { PLUGIN_BLOCK_PREFIX, type NoteFacts, type PluginBlockTypes } from './plugin-types.js';

export interface BlockCreate {
  noteId?: number;
  type?: string;
  position?: string;
  content?: unknown;
}

/** Block content's references checked against the rows that exist and that `vis` may see. */
function refChecker(blocks: BlockRepository, vis: Visibility): RefChecker {
  return {
    async firstMissing(table, ids) {
      if (ids.length === 0) return undefined;
      return firstMissing(ids, await blocks.existing(table, ids, vis));
    },
  };
}

function positionOf(raw: unknown, field: string): string {
  if (typeof raw !== 'string' || !isValidPosition(raw)) throw badRequest(`${field} must be a non-empty string of at most 64 bytes`);
  return raw;
}

/** Rewrites a note's positions evenly spaced, keeping the current order. */
async function rebalanceNote(blocks: BlockRepository, noteId: number): Promise<void> {
  const rows = await blocks.positions(noteId);
  const keys = evenlySpaced(rows.length);
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].position !== keys[i]) await blocks.update(rows[i].id, { position: keys[i] });
  }
}

async function rebalanceIfLong(blocks: BlockRepository, noteId: number): Promise<void> {
  const longest = await blocks.longestPosition(noteId);
  if (longest !== undefined && needsRebalance([longest])) await rebalanceNote(blocks, noteId);
}

export class BlockService {
  constructor(
    private readonly repo: BlockRepository,
    private readonly deps: NamedDeps,
    /** Block types of loaded plugins (library-plugins.md §22); absent without the plugin host. */
    private readonly plugins?: PluginBlockTypes,
  ) {}

  /** A built-in type, or a loaded plugin's; anything else is a 400 "unknown block type". */
  private typeOf(name: string): BlockType {
    if (!name.startsWith(PLUGIN_BLOCK_PREFIX)) return blockType(name);
    const t = this.plugins?.find(name);
    if (!t) throw badRequest(`unknown block type "${name}"`);
    return t;
  }

  /** A plugin type's filters must admit the note (§22.2). */
  private async requireAdmitted(blocks: BlockRepository, name: string, noteId: number): Promise<void> {
    const t = this.plugins?.find(name);
    if (!t) return;
    const facts = await blocks.filterFacts(noteId);
    if (!t.admits({ noteTypeId: facts?.note_type_id ?? null, ownerCategoryId: facts?.category_id ?? null })) {
      throw badRequest(`block type "${name}" is not available for this note`);
    }
  }

  /** The note, if `vis` may see it (404 otherwise: a block is as visible as its note). */
  private async requireNote(blocks: BlockRepository, noteId: number | undefined, vis: Visibility) {
    if (noteId === undefined) throw badRequest('noteId is required');
    const note = await blocks.note(noteId, vis);
    if (!note) throw notFound(`note ${noteId} not found`);
    return note;
  }

  /** Inside the caller's transaction: a newly saved note description goes into the first text block. */
  descriptionSaved(tx: Tx<Database>, noteId: number, description: string): Promise<void> {
    return writeDescriptionToFirstTextBlock(this.repo.in(tx), noteId, description);
  }

  /** Inside the caller's transaction: the note description follows its first text block again. */
  mirrorDescription(tx: Tx<Database>, noteId: number): Promise<void> {
    return mirrorDescription(this.repo.in(tx), noteId);
  }

  /** The block, or undefined (the share server answers its own 404; a share token sees its note). */
  find(id: number): Promise<BlockRow | undefined> {
    return this.repo.find(id, SEE_ALL);
  }

  /**
   * The block, if `vis` may see its note (404 otherwise), checked against the optional noteId
   * guard (a block of another note is a 400).
   */
  async require(vis: Visibility, id: number | undefined, noteIdGuard?: number): Promise<BlockRow> {
    if (id === undefined) throw badRequest('id is required');
    const row = await this.repo.find(id, vis);
    if (!row) throw notFound(`block ${id} not found`);
    if (noteIdGuard !== undefined && noteIdGuard !== 0 && row.note_id !== noteIdGuard) {
      throw badRequest(`block ${id} does not belong to note ${noteIdGuard}`);
    }
    return row;
  }

  async types(vis: Visibility, noteId?: number) {
    let facts: NoteFacts | undefined;
    if (noteId !== undefined) {
      await this.requireNote(this.repo, noteId, vis);
      const row = await this.repo.filterFacts(noteId);
      facts = { noteTypeId: row?.note_type_id ?? null, ownerCategoryId: row?.category_id ?? null };
    }
    const builtIn: Record<string, unknown>[] = builtInTypes().map((t) => ({ type: t.type, defaultContent: t.defaultContent(), defaultState: t.defaultState() }));
    return [...builtIn, ...(this.plugins?.listing(facts) ?? [])];
  }

  async list(vis: Visibility, noteId: number | undefined): Promise<BlockRecord[]> {
    const note = await this.requireNote(this.repo, noteId, vis);
    return this.blocksOf(note.id);
  }

  /** A note's blocks in order (position, then id). */
  async blocksOf(noteId: number): Promise<BlockRecord[]> {
    return (await this.repo.ofNote(noteId)).map(blockRecord);
  }

  async get(vis: Visibility, id: number | undefined): Promise<BlockRecord> {
    return blockRecord(await this.require(vis, id));
  }

  async create(actor: Actor, input: BlockCreate): Promise<BlockRecord> {
    if (input.noteId === undefined) throw badRequest('noteId is required');
    if (input.type === undefined || input.type === '') throw badRequest('type is required');
    const type = this.typeOf(input.type);
    if (input.content !== undefined && input.content !== null && !isObject(input.content)) throw badRequest('content must be an object');
    const position = input.position === undefined || input.position === '' ? undefined : positionOf(input.position, 'position');
    const vis = visibilityOf(actor.principal);
    const id = await withChange(this.deps.bus, actor, 'create', 'note_block', async () => {
      const created = await this.deps.transactor.run(async (tx) => {
        const blocks = this.repo.in(tx);
        const note = await this.requireNote(blocks, input.noteId, vis);
        await this.requireAdmitted(blocks, type.type, note.id);
        const content = isObject(input.content) ? await type.content(input.content, refChecker(blocks, vis)) : type.defaultContent();
        const at = position ?? positionAfter((await blocks.lastPosition(note.id)) ?? null);
        if (type.type === 'text' && content.text === '' && note.description !== '') {
          // A new first text block that arrives empty takes over the existing description.
          const first = await blocks.firstText(note.id);
          if (!first || at < first.position) content.text = note.description;
        }
        const now = nowIso();
        const blockId = await blocks.insert({
          created_at: now,
          updated_at: now,
          created_by_user_id: actor.principal.userId,
          note_id: note.id,
          type: type.type,
          position: at,
          content: JSON.stringify(content),
          state: JSON.stringify(type.defaultState()),
        });
        await rebalanceIfLong(blocks, note.id);
        if (type.type === 'text') await mirrorDescription(blocks, note.id);
        return { id: blockId, noteId: note.id };
      });
      return { id: created.id, after: { noteId: created.noteId, type: type.type }, message: `Added ${type.type} block ${created.id} to note ${created.noteId}`, result: created.id };
    });
    return this.get(vis, id);
  }

  async updateContent(actor: Actor, id: number | undefined, noteIdGuard: number | undefined, rawContent: unknown): Promise<BlockRecord> {
    if (rawContent === undefined || rawContent === null) throw badRequest('content is required');
    if (!isObject(rawContent)) throw badRequest('content must be an object');
    const vis = visibilityOf(actor.principal);
    const before = await this.require(vis, id, noteIdGuard);
    const type = this.typeOf(before.type);
    await withChange(this.deps.bus, actor, 'update', 'note_block', async () => {
      await this.deps.transactor.run(async (tx) => {
        const blocks = this.repo.in(tx);
        const content = await type.content(rawContent, refChecker(blocks, vis));
        const state = this.keepValidState(type, parseJson<JsonObject>(before.state, {}), content);
        await blocks.update(before.id, { content: JSON.stringify(content), state: JSON.stringify(state), updated_at: nowIso() });
        if (type.type === 'text') await mirrorDescription(blocks, before.note_id);
      });
      // `after` names the block's note and type: listeners (mentions → links) read the note.
      return { id: before.id, after: { noteId: before.note_id, type: type.type }, message: `Edited ${type.type} block ${before.id} of note ${before.note_id}`, result: undefined };
    });
    return this.get(vis, before.id);
  }

  /** State that no longer fits new content (a checked item that was removed) is trimmed. */
  private keepValidState(type: BlockType, state: JsonObject, content: JsonObject): JsonObject {
    try {
      return type.state(state, content);
    } catch {
      if (type.type === 'todos') {
        const ids = new Set((content.items as { id: string }[]).map((i) => i.id));
        const checked = Array.isArray(state.checked) ? state.checked.filter((c) => typeof c === 'string' && ids.has(c)) : [];
        return { checked };
      }
      return type.defaultState();
    }
  }

  /** View-mode state changes (checking a todo, sorting a table) are not audit-logged. */
  async updateState(vis: Visibility, id: number | undefined, noteIdGuard: number | undefined, rawState: unknown): Promise<BlockRecord> {
    if (rawState === undefined || rawState === null) throw badRequest('state is required');
    if (!isObject(rawState)) throw badRequest('state must be an object');
    const before = await this.require(vis, id, noteIdGuard);
    const type = this.typeOf(before.type);
    const state = type.state(rawState, parseJson<JsonObject>(before.content, {}));
    await this.repo.update(before.id, { state: JSON.stringify(state), updated_at: nowIso() });
    return this.get(vis, before.id);
  }

  async delete(actor: Actor, id: number | undefined, noteIdGuard: number | undefined): Promise<void> {
    const before = await this.require(visibilityOf(actor.principal), id, noteIdGuard);
    await withChange(this.deps.bus, actor, 'delete', 'note_block', async () => {
      await this.deps.transactor.run(async (tx) => {
        const blocks = this.repo.in(tx);
        await blocks.remove(before.id);
        if (before.type === 'text') await mirrorDescription(blocks, before.note_id, true);
      });
      return { id: before.id, message: `Deleted ${before.type} block ${before.id} of note ${before.note_id}`, result: undefined };
    });
  }

  async reorder(actor: Actor, noteId: number | undefined, positions: unknown): Promise<void> {
    if (noteId === undefined) throw badRequest('noteId is required');
    if (positions === undefined || positions === null) throw badRequest('positions is required');
    if (!isObject(positions)) throw badRequest('positions must be an object of block id to position');
    const wanted = Object.entries(positions).map(([key, pos]) => {
      if (!/^\d+$/.test(key)) throw badRequest(`positions: "${key}" is not a block id`);
      return { id: Number(key), position: positionOf(pos, `positions.${key}`) };
    });
    await withChange(this.deps.bus, actor, 'update', 'note_block', async () => {
      await this.deps.transactor.run(async (tx) => {
        const blocks = this.repo.in(tx);
        const note = await this.requireNote(blocks, noteId, visibilityOf(actor.principal));
        const now = nowIso();
        for (const w of wanted) {
          // Only the note's own blocks move; any other id rolls the whole reorder back.
          if (!(await blocks.move(note.id, w.id, w.position, now))) throw badRequest(`block ${w.id} does not belong to note ${note.id}`);
        }
        await rebalanceIfLong(blocks, note.id);
        await mirrorDescription(blocks, note.id);
      });
      return { id: noteId, message: `Reordered ${wanted.length} blocks of note ${noteId}`, result: undefined };
    });
  }

  async rebalance(actor: Actor, noteId: number | undefined): Promise<void> {
    await withChange(this.deps.bus, actor, 'update', 'note_block', async () => {
      await this.deps.transactor.run(async (tx) => {
        const blocks = this.repo.in(tx);
        const note = await this.requireNote(blocks, noteId, visibilityOf(actor.principal));
        await rebalanceNote(blocks, note.id);
      });
      return { id: noteId, message: `Rebalanced the block positions of note ${noteId}`, result: undefined };
    });
  }
}

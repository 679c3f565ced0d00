// Block rules (contract: Note blocks; companion §12.3): typed content and state checked on every
// write, fractional positions (append when omitted, explicit reorder, automatic rebalance once a
// key grows past REBALANCE_LENGTH), the noteId ownership guard, and the note description kept in
// step with the first text block.
import type { Kysely } from 'kysely';
import { nowIso, parseJson } from '../../core/db/values.js';
import { badRequest, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/crud.js';
import type { Database } from '../schema/database.js';
import { currentDescription, firstTextBlock, mirrorDescription } from './description.js';
import { evenlySpaced, isValidPosition, needsRebalance, positionAfter } from './positions.js';
import { blockRecord, type BlockRecord, type BlockRow, type JsonObject } from './records.js';
import { isObject } from './shape.js';
import { blockType, builtInTypes, type RefChecker } from './types.js';

type Db = Kysely<Database>;

export interface BlockCreate {
  noteId?: number;
  type?: string;
  position?: string;
  content?: unknown;
}

function refChecker(db: Db): RefChecker {
  return {
    async firstMissing(table, ids) {
      if (ids.length === 0) return undefined;
      const found = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
      const have = new Set(found.map((r) => r.id));
      return ids.find((id) => !have.has(id));
    },
  };
}

function positionOf(raw: unknown, field: string): string {
  if (typeof raw !== 'string' || !isValidPosition(raw)) throw badRequest(`${field} must be 1 to 64 lowercase letters (a-z)`);
  return raw;
}

/** Rewrites a note's positions evenly spaced, keeping the current order. */
async function rebalanceNote(db: Db, noteId: number): Promise<void> {
  const rows = await db.selectFrom('note_blocks').select(['id', 'position']).where('note_id', '=', noteId).orderBy('position').orderBy('id').execute();
  const keys = evenlySpaced(rows.length);
  for (let i = 0; i < rows.length; i++) {
    if (rows[i].position !== keys[i]) await db.updateTable('note_blocks').set({ position: keys[i] }).where('id', '=', rows[i].id).execute();
  }
}

async function rebalanceIfLong(db: Db, noteId: number): Promise<void> {
  const longest = await db
    .selectFrom('note_blocks')
    .select('position')
    .where('note_id', '=', noteId)
    .orderBy((eb) => eb.fn('length', ['position']), 'desc')
    .limit(1)
    .executeTakeFirst();
  if (longest && needsRebalance([longest.position])) await rebalanceNote(db, noteId);
}

export class BlockService {
  constructor(private readonly lib: Library) {}

  private async requireNote(db: Db, noteId: number | undefined) {
    if (noteId === undefined) throw badRequest('noteId is required');
    const note = await db.selectFrom('notes').select(['id', 'name', 'description', 'note_type_id']).where('id', '=', noteId).executeTakeFirst();
    if (!note) throw notFound(`note ${noteId} not found`);
    return note;
  }

  /** The block, checked against the optional noteId guard (a block of another note is a 400). */
  async require(id: number | undefined, noteIdGuard?: number, db: Db = this.lib.db): Promise<BlockRow> {
    if (id === undefined) throw badRequest('id is required');
    const row = await db.selectFrom('note_blocks').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound(`block ${id} not found`);
    if (noteIdGuard !== undefined && noteIdGuard !== 0 && row.note_id !== noteIdGuard) {
      throw badRequest(`block ${id} does not belong to note ${noteIdGuard}`);
    }
    return row;
  }

  async types(noteId?: number) {
    if (noteId !== undefined) await this.requireNote(this.lib.db, noteId);
    return builtInTypes().map((t) => ({ type: t.type, defaultContent: t.defaultContent(), defaultState: t.defaultState() }));
  }

  async list(noteId: number | undefined): Promise<BlockRecord[]> {
    const note = await this.requireNote(this.lib.db, noteId);
    return this.blocksOf(note.id);
  }

  /** A note's blocks in order (position, then id). */
  async blocksOf(noteId: number, db: Db = this.lib.db): Promise<BlockRecord[]> {
    const rows = await db.selectFrom('note_blocks').selectAll().where('note_id', '=', noteId).orderBy('position').orderBy('id').execute();
    return rows.map(blockRecord);
  }

  async get(id: number | undefined): Promise<BlockRecord> {
    return blockRecord(await this.require(id));
  }

  async create(actor: Actor, input: BlockCreate): Promise<BlockRecord> {
    if (input.noteId === undefined) throw badRequest('noteId is required');
    if (input.type === undefined || input.type === '') throw badRequest('type is required');
    const type = blockType(input.type);
    if (input.content !== undefined && input.content !== null && !isObject(input.content)) throw badRequest('content must be an object');
    const position = input.position === undefined || input.position === '' ? undefined : positionOf(input.position, 'position');
    const id = await withChange(this.lib, actor, 'create', 'note_block', async () => {
      const created = await this.lib.db.transaction().execute(async (trx) => {
        const note = await this.requireNote(trx, input.noteId);
        const content = isObject(input.content) ? await type.content(input.content, refChecker(trx)) : type.defaultContent();
        const last = position
          ? undefined
          : await trx.selectFrom('note_blocks').select('position').where('note_id', '=', note.id).orderBy('position', 'desc').limit(1).executeTakeFirst();
        const at = position ?? positionAfter(last?.position ?? null);
        if (type.type === 'text' && content.text === '' && note.description !== '') {
          // A new first text block that arrives empty takes over the existing description.
          const first = await firstTextBlock(trx, note.id);
          const firstPos = first ? (await trx.selectFrom('note_blocks').select('position').where('id', '=', first.id).executeTakeFirstOrThrow()).position : null;
          if (firstPos === null || at < firstPos) content.text = await currentDescription(trx, note.id);
        }
        const now = nowIso();
        const row = await trx
          .insertInto('note_blocks')
          .values({
            created_at: now,
            updated_at: now,
            created_by_user_id: actor.principal.userId,
            note_id: note.id,
            type: type.type,
            position: at,
            content: JSON.stringify(content),
            state: JSON.stringify(type.defaultState()),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await rebalanceIfLong(trx, note.id);
        if (type.type === 'text') await mirrorDescription(trx, note.id);
        return { id: row.id, noteId: note.id };
      });
      return { id: created.id, message: `Added ${type.type} block ${created.id} to note ${created.noteId}`, result: created.id };
    });
    return this.get(id);
  }

  async updateContent(actor: Actor, id: number | undefined, noteIdGuard: number | undefined, rawContent: unknown): Promise<BlockRecord> {
    if (rawContent === undefined || rawContent === null) throw badRequest('content is required');
    if (!isObject(rawContent)) throw badRequest('content must be an object');
    const before = await this.require(id, noteIdGuard);
    const type = blockType(before.type);
    await withChange(this.lib, actor, 'update', 'note_block', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        const content = await type.content(rawContent, refChecker(trx));
        const state = this.keepValidState(type, parseJson<JsonObject>(before.state, {}), content);
        await trx
          .updateTable('note_blocks')
          .set({ content: JSON.stringify(content), state: JSON.stringify(state), updated_at: nowIso() })
          .where('id', '=', before.id)
          .execute();
        if (type.type === 'text') await mirrorDescription(trx, before.note_id);
      });
      return { id: before.id, message: `Edited ${type.type} block ${before.id} of note ${before.note_id}`, result: undefined };
    });
    return this.get(before.id);
  }

  /** State that no longer fits new content (a checked item that was removed) is trimmed. */
  private keepValidState(type: ReturnType<typeof blockType>, state: JsonObject, content: JsonObject): JsonObject {
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
  async updateState(id: number | undefined, noteIdGuard: number | undefined, rawState: unknown): Promise<BlockRecord> {
    if (rawState === undefined || rawState === null) throw badRequest('state is required');
    if (!isObject(rawState)) throw badRequest('state must be an object');
    const before = await this.require(id, noteIdGuard);
    const type = blockType(before.type);
    const state = type.state(rawState, parseJson<JsonObject>(before.content, {}));
    await this.lib.db.updateTable('note_blocks').set({ state: JSON.stringify(state), updated_at: nowIso() }).where('id', '=', before.id).execute();
    return this.get(before.id);
  }

  async delete(actor: Actor, id: number | undefined, noteIdGuard: number | undefined): Promise<void> {
    const before = await this.require(id, noteIdGuard);
    await withChange(this.lib, actor, 'delete', 'note_block', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('note_blocks').where('id', '=', before.id).execute();
        if (before.type === 'text') await mirrorDescription(trx, before.note_id, true);
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
    await withChange(this.lib, actor, 'update', 'note_block', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        const note = await this.requireNote(trx, noteId);
        const now = nowIso();
        for (const w of wanted) {
          // Only the note's own blocks move; any other id rolls the whole reorder back.
          const r = await trx.updateTable('note_blocks').set({ position: w.position, updated_at: now }).where('id', '=', w.id).where('note_id', '=', note.id).executeTakeFirst();
          if (Number(r.numUpdatedRows) === 0) throw badRequest(`block ${w.id} does not belong to note ${note.id}`);
        }
        await rebalanceIfLong(trx, note.id);
        await mirrorDescription(trx, note.id);
      });
      return { id: noteId, message: `Reordered ${wanted.length} blocks of note ${noteId}`, result: undefined };
    });
  }

  async rebalance(actor: Actor, noteId: number | undefined): Promise<void> {
    await withChange(this.lib, actor, 'update', 'note_block', async () => {
      await this.lib.db.transaction().execute(async (trx) => {
        const note = await this.requireNote(trx, noteId);
        await rebalanceNote(trx, note.id);
      });
      return { id: noteId, message: `Rebalanced the block positions of note ${noteId}`, result: undefined };
    });
  }
}

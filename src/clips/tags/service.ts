// Tag rules (companion §4): hierarchy with auto-created parents, colours, subtree rename,
// delete that keeps children and revokes keys scoped to the tag, and tag-scope confinement.
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../core/http/errors.js';
import { isoStamp, keyStamp } from '../clock.js';
import type { ClipContext } from '../context.js';
import type { KeyPrincipal, Scope } from '../http/principal.js';
import { KeyRepository } from '../keys/repository.js';
import { readHiddenList, writeHiddenList } from './hidden.js';
import { ancestorsOf, inSubtree, validTagName } from './names.js';
import { TagRepository, type TagJson, type TagRow } from './repository.js';

export const PALETTE = ['#78716C', '#EF4444', '#F59E0B', '#22C55E', '#3B82F6', '#8B5CF6', '#EC4899', '#06B6D4'];
const COLOR = /^#[0-9A-Fa-f]{6}$/;

export function tagInScope(scope: Scope | null, tag: { id: number; name: string }): boolean {
  return !scope || tag.id === scope.tagId || tag.name.startsWith(`${scope.name}/`);
}

export class TagService {
  readonly repo: TagRepository;
  private readonly keys: KeyRepository;

  constructor(private readonly ctx: ClipContext) {
    this.repo = new TagRepository(ctx.db);
    this.keys = new KeyRepository(ctx.db);
  }

  private now(): string {
    return isoStamp(this.ctx.clock.now());
  }

  async require(id: number): Promise<TagRow> {
    const tag = await this.repo.find(id);
    if (!tag) throw notFound('tag not found');
    return tag;
  }

  /** All tags, or for a scoped key its scope tag and descendants. */
  async list(caller: KeyPrincipal): Promise<TagJson[]> {
    const rows = await this.repo.list(caller.scope ? { id: caller.scope.tagId, name: caller.scope.name } : undefined);
    return this.repo.toJson(rows, this.now());
  }

  /** Direct children; for a scoped key, a tag outside its subtree (or unknown) answers []. */
  async children(caller: KeyPrincipal, id: number): Promise<TagJson[]> {
    const tag = await this.repo.find(id);
    if (caller.scope && (!tag || !tagInScope(caller.scope, tag))) return [];
    if (!tag) throw notFound('tag not found');
    return this.repo.toJson(await this.repo.children(tag), this.now());
  }

  async create(caller: KeyPrincipal, rawName: unknown): Promise<TagJson> {
    const name = validTagName(rawName);
    if (caller.scope && !inSubtree(name, caller.scope.name)) throw forbidden('tag-scoped key can only create subtags under its scope');
    const tag = await this.makePath(name, true);
    return { id: tag.id, name: tag.name, color: tag.color, count: 0 };
  }

  /** The tag of this (valid) name, made with its missing ancestors when absent (tag-server uploads). */
  ensure(name: string): Promise<TagRow> {
    return this.makePath(validTagName(name), false);
  }

  /**
   * Creates the missing tags of a path, root-most first, in one transaction (companion §4.2,
   * colours §4.3). An existing tag of that name is 409 when `mustBeNew`, else returned.
   */
  private async makePath(name: string, mustBeNew: boolean): Promise<TagRow> {
    const now = this.now();
    const { made, tag } = await this.ctx.db.transaction().execute(async (trx) => {
      const repo = this.repo.in(trx);
      const found = await repo.findByName(name);
      if (found) {
        if (mustBeNew) throw conflict(`tag already exists: ${name}`);
        return { made: [] as TagRow[], tag: found };
      }
      const made: TagRow[] = [];
      let inherited: string | null = null;
      for (const path of [...ancestorsOf(name), name]) {
        const existing = await repo.findByName(path);
        if (existing) {
          inherited = existing.color;
          continue;
        }
        // Nearest existing ancestor's colour, else the palette by how many tags exist.
        const color: string = inherited ?? PALETTE[(await repo.countAll()) % PALETTE.length];
        const row = await repo.insert({ name: path, color, created_at: now });
        made.push(row);
        inherited = color;
      }
      return { made, tag: made[made.length - 1] };
    });
    for (const t of made) this.ctx.events.emit('tag:created', { id: t.id, name: t.name, color: t.color });
    return tag;
  }

  /** Rename (moving the whole subtree) and/or recolour. */
  async update(caller: KeyPrincipal, id: number, input: { name?: unknown; color?: unknown }): Promise<void> {
    if (input.name !== undefined && input.name !== null && typeof input.name !== 'string') throw badRequest('name must be a string');
    if (input.color !== undefined && input.color !== null && typeof input.color !== 'string') throw badRequest('color must be a string');
    const rawName = typeof input.name === 'string' ? input.name : undefined;
    const color = typeof input.color === 'string' ? input.color : undefined;
    if (rawName === undefined && color === undefined) throw badRequest('name or color is required');
    if (color !== undefined && !COLOR.test(color)) throw badRequest('invalid color');

    const tag = await this.require(id);
    if (!tagInScope(caller.scope, tag)) throw forbidden('tag is outside the key\'s scope');
    const newName = rawName === undefined || rawName.trim() === '' ? tag.name : validTagName(rawName);
    if (caller.scope && newName !== tag.name && (tag.id === caller.scope.tagId || !inSubtree(newName, caller.scope.name))) {
      throw forbidden('tag-scoped key cannot rename a tag outside its scope');
    }

    const updated = await this.ctx.db.transaction().execute(async (trx) => {
      const repo = this.repo.in(trx);
      if (color !== undefined) await repo.setColor(id, color);
      if (newName !== tag.name) {
        const subtree = await repo.subtree(tag);
        const renamed = subtree.map((t) => ({ id: t.id, name: newName + t.name.slice(tag.name.length) }));
        for (const r of renamed) validTagName(r.name);
        const moving = new Set(subtree.map((t) => t.id));
        const clashes = await repo.findByNames(renamed.map((r) => r.name));
        if (clashes.some((c) => !moving.has(c.id))) throw conflict('tag rename conflicts with an existing tag');
        // Two steps so a rename inside its own subtree never trips the unique index midway.
        await repo.parkNames([...moving]);
        for (const r of renamed) await repo.setName(r.id, r.name);
      }
      return (await repo.find(id))!;
    });
    this.ctx.events.emit('tag:updated', { id: updated.id, name: updated.name, color: updated.color });
  }

  /**
   * Deletes one tag; children stay (as orphan subtags). Keys scoped to it are revoked, its id
   * leaves the hidden list, and watch folders lose it as auto-tag (foreign key), in one go.
   */
  async delete(caller: KeyPrincipal, id: number): Promise<void> {
    const tag = await this.require(id);
    if (!tagInScope(caller.scope, tag)) throw forbidden('tag is outside the key\'s scope');
    const revokedAt = keyStamp(this.ctx.clock.now());
    await this.ctx.db.transaction().execute(async (trx) => {
      await this.keys.in(trx).revokeScopedTo(id, revokedAt);
      const hidden = await readHiddenList(trx);
      if (hidden.includes(id)) await writeHiddenList(trx, hidden.filter((h) => h !== id));
      await this.repo.in(trx).delete(id);
    });
    this.ctx.events.emit('tag:deleted', id);
  }

  async hidden(): Promise<{ ids: number[] }> {
    return { ids: await readHiddenList(this.ctx.db) };
  }

  async setHidden(ids: unknown): Promise<void> {
    if (!Array.isArray(ids) || !ids.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0)) {
      throw badRequest('ids must be an array of positive integers');
    }
    await writeHiddenList(this.ctx.db, ids as number[]);
  }

  /** For a scoped caller: the tag must lie in its subtree (403 otherwise). */
  requireInScope(caller: KeyPrincipal, tag: TagRow, message = 'forbidden: tag not in scoped tag'): void {
    if (!tagInScope(caller.scope, tag)) throw new HttpError(403, message);
  }
}


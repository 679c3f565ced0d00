// Clip rules (companion §3): visibility (scope, expiry), upload with dedup, rename, archive,
// expiration and delete. Every change is one transaction; blob files are garbage-collected
// only after the rows that referenced them are gone.
import { inAmbientTransaction } from '../../core/db/ambient.js';
import { GroupCommit } from '../../core/db/group-commit.js';
import { badRequest, HttpError, notFound } from '../../core/http/errors.js';
import { isoStamp, rfc3339 } from '../clock.js';
import type { ClipContext } from '../context.js';
import type { KeyPrincipal, Scope } from '../http/principal.js';
import type { StagedBlob } from '../storage/blobs.js';
import { HEAD_BYTES } from '../storage/blobs.js';
import { BlobJournalRepository, type JournalEntry } from '../storage/journal.repository.js';
import { addTagToClips, emitLinkChanges, type LinkChange } from '../tags/assign.js';
import type { TagRef } from '../tags/names.js';
import { TagRepository, type TagJson } from '../tags/repository.js';
import { detectContentType, isTextType } from './content-type.js';
import { validFilename } from './filenames.js';
import { ClipRepository, insertedRow, type ClipFilter, type ClipRow, type NewClipRow } from './repository.js';

export const MAX_CLIP_BYTES = 100 * 1024 * 1024;
export const MAX_EXPIRY_MINUTES = 5_256_000;

export interface ClipJson {
  id: number;
  filename: string;
  content_type: string;
  size: number;
  is_archived: boolean;
  created_at: string;
  tags: TagJson[];
}

/** The search excerpt of text-like content (companion §2.2.5); null for binary clips. */
export function textExcerpt(contentType: string, head: Buffer): string | null {
  return isTextType(contentType) ? head.subarray(0, HEAD_BYTES).toString('utf8') : null;
}

export const scopeTag = (scope: Scope): TagRef => ({ id: scope.tagId, name: scope.name });

export const notInScope = () => new HttpError(403, 'forbidden: clip not in scoped tag');

/** Expiration minutes: a JSON integer 1 … 5,256,000. */
export function validMinutes(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw badRequest('minutes must be positive');
  if (value > MAX_EXPIRY_MINUTES) throw badRequest('minutes too large');
  return value;
}

/** The row of a new clip made from staged bytes, whichever way it is written. */
function uploadRow(staged: StagedBlob, filename: string, contentType: string, archived: boolean | undefined, createdAt: string): NewClipRow {
  return {
    filename,
    content_type: contentType,
    size: staged.size,
    content_hash: staged.hash,
    text_content: textExcerpt(contentType, staged.head),
    is_archived: archived ? 1 : 0,
    expires_at: null,
    created_at: createdAt,
  };
}

function clipJson(r: ClipRow, tags: TagJson[]): ClipJson {
  return {
    id: r.id,
    filename: r.filename,
    content_type: r.content_type,
    size: r.size,
    is_archived: r.is_archived === 1,
    created_at: rfc3339(r.created_at),
    tags,
  };
}

export interface NewClip {
  /** Stored filename ("" allowed). */
  filename: string;
  /** The declared content type, if any. */
  declaredType?: string | null;
}

export class ClipService {
  readonly repo: ClipRepository;
  private readonly journal: BlobJournalRepository;
  readonly tags: TagRepository;

  constructor(private readonly ctx: ClipContext) {
    this.repo = new ClipRepository(ctx.db);
    this.journal = new BlobJournalRepository(ctx.db);
    this.tags = new TagRepository(ctx.db);
  }

  now(): string {
    return isoStamp(this.ctx.clock.now());
  }

  readonly referenced = (hash: string) => this.repo.referenced(hash);

  async toJson(rows: readonly ClipRow[]): Promise<ClipJson[]> {
    const links = await this.repo.tagLinks(rows.map((r) => r.id));
    const counts = await this.tags.counts([...new Set(links.map((l) => l.id))], this.now());
    const byClip = new Map<number, TagJson[]>();
    for (const l of links) {
      const list = byClip.get(l.clip_id) ?? [];
      list.push({ id: l.id, name: l.name, color: l.color, count: counts.get(l.id) ?? 0 });
      byClip.set(l.clip_id, list);
    }
    return rows.map((r) => clipJson(r, byClip.get(r.id) ?? []));
  }

  async one(row: ClipRow): Promise<ClipJson> {
    return (await this.toJson([row]))[0];
  }

  async page(filter: ClipFilter, page: { limit: number; offset: number }) {
    const [rows, total] = await Promise.all([this.repo.list(filter, page), this.repo.count(filter)]);
    return { clips: await this.toJson(rows), total, limit: page.limit, offset: page.offset };
  }

  /**
   * The clip a caller may act on: for a scoped key the scope is checked first (so unknown ids
   * answer 403 and reveal nothing), then existence and expiry (404).
   */
  async accessible(caller: KeyPrincipal, id: number): Promise<ClipRow> {
    if (caller.scope && (await this.repo.countInScope([id], scopeTag(caller.scope))) === 0) throw notInScope();
    const row = await this.repo.findLive(id, this.now());
    if (!row) throw notFound('clip not found');
    return row;
  }

  /** Every id must be in the caller's scope (all-or-nothing); unknown ids count as outside. */
  async requireAllInScope(caller: KeyPrincipal, ids: readonly number[]): Promise<void> {
    if (!caller.scope) return;
    const unique = [...new Set(ids)];
    if ((await this.repo.countInScope(unique, scopeTag(caller.scope))) !== unique.length) throw notInScope();
  }

  /**
   * Turns staged bytes into a clip. With `dedup`, live content already stored returns that clip
   * (created: false) instead; `tag` (a scoped key's scope, a watch folder's auto-tag) is applied
   * to whichever clip results, and `archived` archives a new clip in the same transaction. The
   * blob is in place before the row is written, and the dedup check and insert run under the
   * content's lock, so concurrent uploads of the same bytes make one clip.
   */
  async createFromStaged(
    staged: StagedBlob,
    clip: NewClip,
    options: { dedup: boolean; tag?: TagRef | null; archived?: boolean },
  ): Promise<{ clip: ClipJson; created: boolean }> {
    const contentType = detectContentType({ declared: clip.declaredType, filename: clip.filename, head: staged.head, size: staged.size });
    // Once the transaction commits, a row refers to the bytes: the blob store need not ask.
    let committed = false;
    const result = await this.ctx.blobs.commit(
      staged,
      async () => {
        // Bytes staged without an fsync travel with the row (storage/journal.ts), stamped after
        // their file was renamed into place.
        const journal = staged.journal && { hash: staged.hash, written_at: Date.now(), bytes: staged.journal };
        const direct = await this.insertDirect(staged, clip.filename, contentType, options, journal);
        if (direct) {
          committed = true;
          return direct;
        }
        const outcome = await this.ctx.db.transaction().execute(async (trx) => {
          const now = this.now();
          const repo = this.repo.in(trx);
          if (journal) await this.journal.in(trx).add(journal);
          const existing = options.dedup ? await repo.findLiveByHash(staged.hash, now) : undefined;
          let row = existing;
          if (!row) {
            const fresh = uploadRow(staged, clip.filename, contentType, options.archived, now);
            row = insertedRow(await repo.insert(fresh), fresh);
          }
          const changes: LinkChange[] = options.tag ? await addTagToClips(trx, [row.id], options.tag, now) : [];
          return { row, created: !existing, changes };
        });
        committed = true;
        return outcome;
      },
      (hash) => committed || this.referenced(hash),
      { journaled: true },
    );
    if (result.created) {
      this.ctx.events.emit('clip:created', { id: result.row.id, content_type: contentType, filename: clip.filename, size: staged.size });
    }
    emitLinkChanges(this.ctx.events, result.changes);
    // A clip made just now with no tag carries none: its reply needs no tag look-up.
    const untagged = result.created && result.changes.length === 0;
    return { clip: untagged ? clipJson(result.row, []) : await this.one(result.row), created: result.created };
  }

  /**
   * The rows of an untagged upload, written synchronously on the raw connection under Kysely's
   * connection lock like every other statement (no promise hop per statement), and together with
   * the other uploads that reached this point in the same turn of the event loop: one
   * transaction, one commit and one full-text segment for all of them (bench/README.md, "Clip
   * service"). Null when the upload must go through Kysely: a tag to apply, a plugin's ambient
   * transaction to join, or a transaction somebody left open on the connection.
   */
  private async insertDirect(
    staged: StagedBlob,
    filename: string,
    contentType: string,
    options: { dedup: boolean; tag?: TagRef | null; archived?: boolean },
    journal: JournalEntry | undefined,
  ): Promise<{ row: ClipRow; created: boolean; changes: LinkChange[] } | null> {
    if (options.tag || inAmbientTransaction()) return null;
    const row = uploadRow(staged, filename, contentType, options.archived, this.now());
    const written = await this.uploadRows.submit({ row, dedup: options.dedup, journal });
    return written && { ...written, changes: [] };
  }

  private readonly uploadRows = new GroupCommit<{ row: NewClipRow; dedup: boolean; journal?: JournalEntry }, { row: ClipRow; created: boolean } | null>((items) =>
    this.ctx.db.connection().execute(async () => {
      if (this.ctx.sqlite.inTransaction) return items.map(() => ({ ok: true as const, value: null }));
      return this.repo.insertOrFindManySync(this.ctx.sqlite, items);
    }),
  );

  /**
   * Points a clip at new bytes (tag-server JSON writes, companion §9.4): type kept, hash, size
   * and search excerpt recomputed; the old blob goes once nothing refers to it. False when the
   * clip no longer exists.
   */
  async replaceContent(id: number, staged: StagedBlob): Promise<boolean> {
    const previous = await this.ctx.blobs.commit(
      staged,
      () => this.repo.replaceContent(id, { hash: staged.hash, size: staged.size, head: staged.head }, textExcerpt),
      this.referenced,
    );
    if (previous === undefined) return false;
    await this.ctx.blobs.release([previous], this.referenced);
    return true;
  }

  async rename(caller: KeyPrincipal, id: number, filename: unknown): Promise<void> {
    const row = await this.accessible(caller, id);
    if (filename !== undefined && filename !== null && typeof filename !== 'string') throw badRequest('filename must be a string');
    if (typeof filename !== 'string' || filename.trim() === '') throw badRequest('filename is required');
    const name = validFilename(filename);
    // Renaming to Markdown makes it Markdown; renaming away keeps the type (reference).
    const markdown = /\.(md|markdown)$/i.test(name);
    await this.repo.rename(row.id, name, markdown ? 'text/markdown' : undefined);
    this.ctx.events.emit('clip:renamed', { id: row.id, filename: name });
  }

  /** Sets is_archived on the live clips among `ids`; emits only for clips that changed. */
  async setArchived(ids: readonly number[], archived: boolean): Promise<void> {
    const changed = await this.repo.setArchived(ids, archived, this.now());
    for (const id of changed) this.ctx.events.emit(archived ? 'clip:archived' : 'clip:unarchived', { id });
  }

  /** Sets (minutes) or clears (null) the expiry of the live clips among `ids`. */
  async setExpiry(ids: readonly number[], minutes: number | null): Promise<void> {
    const now = this.ctx.clock.now();
    const expiresAt = minutes === null ? null : isoStamp(new Date(now.getTime() + minutes * 60_000));
    await this.repo.setExpiry(ids, expiresAt, isoStamp(now));
  }

  /** Deletes the listed clips (live or not) with their links and metadata, then their unshared blobs. */
  async deleteMany(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const gone = await this.repo.deleteMany(ids);
    await this.ctx.blobs.release(gone.map((g) => g.content_hash), this.referenced);
    for (const g of gone) this.ctx.events.emit('clip:deleted', g.id);
    return gone.map((g) => g.id);
  }

  async delete(caller: KeyPrincipal, id: number): Promise<void> {
    const row = await this.accessible(caller, id);
    await this.deleteMany([row.id]);
  }

  /** Cleanup step: removes every clip whose expiry has passed. */
  async deleteExpired(): Promise<number> {
    return (await this.deleteMany(await this.repo.expiredIds(this.now()))).length;
  }
}

// Note sharing (contract: Note sharing): a 32-character random token per shared note, handed out
// only while a share server runs (checked before the note is looked up), unshare, and the bulk
// revoke of the admin shares page. The token is a capability URL: it is stored as given because
// the service shows the link again (existing token returned, admin list), like the reference.
import { randomBytes } from 'node:crypto';
import { nowIso } from '../../core/db/values.js';
import { HttpError, badRequest, notFound } from '../../core/http/errors.js';
import type { RuntimeSettings } from '../admin/settings.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/changes.js';
import { pageOf } from '../common/list.js';
import type { NamedDeps } from '../common/named.js';
import type { ShareRepository } from './repository.js';

export interface ShareDeps extends Pick<NamedDeps, 'bus'> {
  /** share_public_url, read on every use (it may change at runtime). */
  settings: Pick<RuntimeSettings, 'get'>;
}

export const TOKEN_LENGTH = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const NO_SHARE_SERVER =
  'note sharing is not available: no share server is running (start the service with -share-port or SHARE_PORT)';

/** 24 random bytes as base64url: exactly 32 characters, 192 bits. */
export function newShareToken(): string {
  return randomBytes(24).toString('base64url');
}

export function shareUrlOf(token: string): string {
  return `/s/${token}`;
}

export class ShareService {
  private serverRunning = false;

  constructor(
    private readonly repo: ShareRepository,
    private readonly deps: ShareDeps,
  ) {}

  /** Set by the share server once it listens, cleared when it stops. */
  setServerRunning(running: boolean): void {
    this.serverRunning = running;
  }

  get running(): boolean {
    return this.serverRunning;
  }

  /** The public link base for the UI (SHARE_PUBLIC_URL), or '' when only the relative path is known. */
  get publicBase(): string {
    return String(this.deps.settings.get('share_public_url')).replace(/\/+$/, '');
  }

  async share(actor: Actor, rawNoteId: string | number | undefined): Promise<{ shareToken: string; shareUrl: string }> {
    if (!this.serverRunning) throw new HttpError(503, NO_SHARE_SERVER);
    const text = String(rawNoteId ?? '').trim();
    if (text === '' || text === '0') throw badRequest('noteId is required');
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw badRequest('noteId must be an integer');
    const noteId = Number(text);
    const note = await this.repo.note(noteId);
    if (!note) throw notFound(`note ${noteId} not found`);
    if (note.share_token) return { shareToken: note.share_token, shareUrl: shareUrlOf(note.share_token) };
    const token = await withChange(this.deps.bus, actor, 'update', 'note', async () => {
      const fresh = newShareToken();
      // Only a note that is still unshared gets the new token; a concurrent share wins otherwise.
      const after = await this.repo.shareOnce(note.id, fresh, nowIso());
      return { id: note.id, name: note.name, message: `Shared note "${note.name}"`, result: after ?? fresh };
    });
    return { shareToken: token, shareUrl: shareUrlOf(token) };
  }

  async unshare(actor: Actor, noteId: number | undefined): Promise<void> {
    if (noteId === undefined || noteId === 0) throw badRequest('noteId is required');
    const note = await this.repo.note(noteId);
    if (!note) throw notFound(`note ${noteId} not found`);
    if (!note.share_token) return;
    await withChange(this.deps.bus, actor, 'update', 'note', async () => {
      await this.repo.unshare([note.id]);
      return { id: note.id, name: note.name, message: `Stopped sharing note "${note.name}"`, result: undefined };
    });
  }

  /** Unshares every listed note that is shared; returns how many were. */
  async bulkRevoke(actor: Actor, ids: number[]): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    return withChange(this.deps.bus, actor, 'update', 'note', async () => {
      const revoked = await this.repo.unshare(unique);
      return { message: `Revoked the shares of ${revoked} notes (${unique.join(', ')})`, result: revoked };
    });
  }

  /** The shared note behind a token; malformed tokens never reach the database. */
  async noteByToken(token: string) {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    return this.repo.byToken(token);
  }

  /** The note type's share template, when the note has a type. */
  shareTemplate(noteTypeId: number | null) {
    return noteTypeId === null ? Promise.resolve(undefined) : this.repo.shareTemplate(noteTypeId);
  }

  /** A resource with that hash attached to the note or shown by one of its gallery blocks. */
  async sharedResource(noteId: number, hash: string) {
    const candidates = await this.repo.resourcesWithHash(hash);
    if (candidates.length === 0) return undefined;
    const ids = candidates.map((c) => c.id);
    const allowed = new Set(await this.repo.attached(noteId, ids));
    if (allowed.size === 0) {
      for (const content of await this.repo.galleryContents(noteId)) {
        const list = (JSON.parse(content) as { resourceIds?: unknown }).resourceIds;
        if (Array.isArray(list)) for (const id of list) if (typeof id === 'number' && ids.includes(id)) allowed.add(id);
      }
    }
    return candidates.find((c) => allowed.has(c.id));
  }

  /** Shared notes, most recently shared first, for the admin shares page. */
  async sharedNotes(page?: number) {
    const { page: p, perPage, offset } = pageOf(page);
    const rows = await this.repo.sharedPage(perPage, offset);
    return { rows, page: p, perPage };
  }
}

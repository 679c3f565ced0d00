// Note sharing (contract: Note sharing): a 32-character random token per shared note, handed out
// only while a share server runs (checked before the note is looked up), unshare, and the bulk
// revoke of the admin shares page. The token is a capability URL: it is stored as given because
// the service shows the link again (existing token returned, admin list), like the reference.
import { randomBytes } from 'node:crypto';
import { nowIso } from '../../core/db/values.js';
import { HttpError, badRequest, notFound } from '../../core/http/errors.js';
import type { Library } from '../context.js';
import type { Actor } from '../auth/principal.js';
import { withChange } from '../common/crud.js';
import { pageOf } from '../common/list.js';

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

  constructor(private readonly lib: Library) {}

  /** Set by the share server once it listens, cleared when it stops. */
  setServerRunning(running: boolean): void {
    this.serverRunning = running;
  }

  get running(): boolean {
    return this.serverRunning;
  }

  /** The public link base for the UI (SHARE_PUBLIC_URL), or '' when only the relative path is known. */
  get publicBase(): string {
    return String(this.lib.settings.get('share_public_url')).replace(/\/+$/, '');
  }

  async share(actor: Actor, rawNoteId: string | number | undefined): Promise<{ shareToken: string; shareUrl: string }> {
    if (!this.serverRunning) throw new HttpError(503, NO_SHARE_SERVER);
    const text = String(rawNoteId ?? '').trim();
    if (text === '' || text === '0') throw badRequest('noteId is required');
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw badRequest('noteId must be an integer');
    const noteId = Number(text);
    const note = await this.lib.db.selectFrom('notes').select(['id', 'name', 'share_token']).where('id', '=', noteId).executeTakeFirst();
    if (!note) throw notFound(`note ${noteId} not found`);
    if (note.share_token) return { shareToken: note.share_token, shareUrl: shareUrlOf(note.share_token) };
    const token = await withChange(this.lib, actor, 'update', 'note', async () => {
      const fresh = newShareToken();
      // Only a note that is still unshared gets the new token; a concurrent share wins otherwise.
      await this.lib.db.updateTable('notes').set({ share_token: fresh, share_created_at: nowIso() }).where('id', '=', note.id).where('share_token', 'is', null).execute();
      const after = await this.lib.db.selectFrom('notes').select('share_token').where('id', '=', note.id).executeTakeFirstOrThrow();
      return { id: note.id, name: note.name, message: `Shared note "${note.name}"`, result: after.share_token ?? fresh };
    });
    return { shareToken: token, shareUrl: shareUrlOf(token) };
  }

  async unshare(actor: Actor, noteId: number | undefined): Promise<void> {
    if (noteId === undefined || noteId === 0) throw badRequest('noteId is required');
    const note = await this.lib.db.selectFrom('notes').select(['id', 'name', 'share_token']).where('id', '=', noteId).executeTakeFirst();
    if (!note) throw notFound(`note ${noteId} not found`);
    if (!note.share_token) return;
    await withChange(this.lib, actor, 'update', 'note', async () => {
      await this.lib.db.updateTable('notes').set({ share_token: null, share_created_at: null }).where('id', '=', note.id).execute();
      return { id: note.id, name: note.name, message: `Stopped sharing note "${note.name}"`, result: undefined };
    });
  }

  /** Unshares every listed note that is shared; returns how many were. */
  async bulkRevoke(actor: Actor, ids: number[]): Promise<number> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return 0;
    return withChange(this.lib, actor, 'update', 'note', async () => {
      const result = await this.lib.db
        .updateTable('notes')
        .set({ share_token: null, share_created_at: null })
        .where('id', 'in', unique)
        .where('share_token', 'is not', null)
        .executeTakeFirst();
      const revoked = Number(result.numUpdatedRows);
      return { message: `Revoked the shares of ${revoked} notes (${unique.join(', ')})`, result: revoked };
    });
  }

  /** The shared note behind a token; malformed tokens never reach the database. */
  async noteByToken(token: string) {
    if (!TOKEN_PATTERN.test(token)) return undefined;
    return this.lib.db.selectFrom('notes').selectAll().where('share_token', '=', token).executeTakeFirst();
  }

  /** Shared notes, most recently shared first, for the admin shares page. */
  async sharedNotes(page?: number) {
    const { page: p, perPage, offset } = pageOf(page);
    const rows = await this.lib.db
      .selectFrom('notes')
      .select(['id', 'name', 'share_token', 'share_created_at'])
      .where('share_token', 'is not', null)
      .orderBy('share_created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset(offset)
      .execute();
    return { rows, page: p, perPage };
  }
}

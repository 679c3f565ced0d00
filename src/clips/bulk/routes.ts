// /clips/bulk/… (contract: Bulk operations). Every id is scope-checked before anything
// changes (all-or-nothing 403); unknown ids are skipped; counts echo the ids submitted.
import { badRequest, HttpError } from '../../core/http/errors.js';
import type { ClipService } from '../clips/service.js';
import { validMinutes } from '../clips/service.js';
import type { ClipContext } from '../context.js';
import { objectBody, type Json } from '../http/input.js';
import type { KeyPrincipal, Role } from '../http/principal.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import { addTagToClips, emitLinkChanges, removeTagFromClips } from '../tags/assign.js';
import type { TagRow } from '../tags/repository.js';
import { tagInScope, type TagService } from '../tags/service.js';
import type { ClipboardService } from '../clipboard/service.js';
import { clipsZip } from './zip.js';

export const MAX_BULK_IDS = 10_000;

export function readIds(body: Json): number[] {
  const ids = body.ids;
  if (!Array.isArray(ids) || ids.length === 0) throw badRequest('ids is required');
  if (ids.length > MAX_BULK_IDS) throw new HttpError(413, `too many ids (max ${MAX_BULK_IDS})`);
  if (!ids.every((v) => typeof v === 'number' && Number.isSafeInteger(v))) throw badRequest('ids must be integers');
  return ids as number[];
}

export function registerBulkRoutes(routes: ClipRoutes, ctx: ClipContext, clips: ClipService, tags: TagService, clipboard: ClipboardService): void {
  /** Reads the body, runs `prepare` (extra fields), checks scope, then acts on the live clips. */
  const bulk = <T>(
    name: string,
    needs: Role,
    summary: string,
    prepare: (body: Json, caller: KeyPrincipal) => Promise<T> | T,
    act: (ids: number[], extra: T) => Promise<unknown>,
  ) =>
    routes.add({
      method: 'POST',
      path: `${API}/clips/bulk/${name}`,
      tag: 'bulk',
      summary,
      needs,
      handler: async ({ req, reply }) => {
        const caller = callerOf(req);
        const body = objectBody(req);
        const ids = readIds(body);
        const extra = await prepare(body, caller);
        await clips.requireAllInScope(caller, ids);
        const live = (await clips.repo.findLiveMany(ids, clips.now())).map((c) => c.id);
        const result = await act(live, extra);
        if (result === undefined) return reply.code(204).send();
        return { [result as string]: ids.length };
      },
    });

  const nothing = () => undefined;

  bulk('delete', 'editor', 'Delete clips', nothing, async (ids) => {
    await clips.deleteMany(ids);
    return 'deleted';
  });
  bulk('archive', 'editor', 'Archive clips', nothing, async (ids) => {
    await clips.setArchived(ids, true);
    return 'archived';
  });
  bulk('unarchive', 'editor', 'Unarchive clips', nothing, async (ids) => {
    await clips.setArchived(ids, false);
    return 'unarchived';
  });
  bulk('expire', 'editor', 'Set the expiry of clips (minutes)', (body) => validMinutes(body.minutes), async (ids, minutes) => {
    await clips.setExpiry(ids, minutes);
    return 'updated';
  });
  bulk('cancel-expire', 'editor', 'Cancel the expiry of clips', nothing, async (ids) => {
    await clips.setExpiry(ids, null);
    return 'updated';
  });

  const bodyTag = async (body: Json, caller: KeyPrincipal): Promise<TagRow> => {
    const id = body.tag_id;
    if (id === undefined || id === null) throw badRequest('tag_id is required');
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) throw badRequest('tag_id must be a positive integer');
    const tag = await tags.repo.find(id);
    if (!tag) throw badRequest('tag not found');
    if (!tagInScope(caller.scope, tag)) throw new HttpError(403, 'forbidden: tag not in scoped tag');
    return tag;
  };
  bulk('tag', 'editor', 'Tag clips (same-root exclusivity per clip)', bodyTag, async (ids, tag) => {
    const changes = await ctx.db.transaction().execute((trx) => addTagToClips(trx, ids, tag, clips.now()));
    emitLinkChanges(ctx.events, changes);
    return 'tagged';
  });
  bulk('untag', 'editor', 'Untag clips', bodyTag, async (ids, tag) => {
    const changes = await ctx.db.transaction().execute((trx) => removeTagFromClips(trx, ids, tag.id));
    emitLinkChanges(ctx.events, changes);
    return 'untagged';
  });

  bulk('copy', 'editor', 'Copy the clip files to the system clipboard (file references)', nothing, async (ids) => {
    await clipboard.copyAsFiles(await clips.repo.findLiveMany(ids, clips.now()));
  });

  routes.add({
    method: 'POST',
    path: `${API}/clips/bulk/download`,
    tag: 'bulk',
    summary: 'A ZIP of the clip files, in the order of ids (streamed)',
    needs: 'viewer',
    handler: async ({ req, reply }) => {
      const caller = callerOf(req);
      const ids = readIds(objectBody(req));
      await clips.requireAllInScope(caller, ids);
      const live = new Map((await clips.repo.findLiveMany(ids, clips.now())).map((c) => [c.id, c]));
      const ordered = [...new Set(ids)].flatMap((id) => (live.has(id) ? [live.get(id)!] : []));
      return reply
        .type('application/zip')
        .header('Content-Disposition', 'attachment; filename="clips.zip"')
        .send(clipsZip(ordered, ctx.blobs));
    },
  });
}


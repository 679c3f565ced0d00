// The `tags` Lua module (companion §8.6): the REST rules of §4, with the reference's results —
// the four changing functions answer exactly `true`, or `false, reason`.
import type { ClipContext } from '../../context.js';
import type { KeyPrincipal } from '../../http/principal.js';
import type { ClipService } from '../../clips/service.js';
import { addTagToClips, emitLinkChanges, removeTagFromClips } from '../../tags/assign.js';
import type { TagService } from '../../tags/service.js';
import { guard, idArg, PluginApiError, textArg } from './common.js';

/** Plugins act with the rights of an unscoped admin (installing one is an admin's approval). */
export const PLUGIN_PRINCIPAL: KeyPrincipal = { keyId: 0, role: 'admin', scope: null };

export function tagModule(ctx: ClipContext, tags: TagService, clips: ClipService) {
  const json = async (rows: Awaited<ReturnType<TagService['repo']['list']>>) => tags.repo.toJson(rows, clips.now());

  const link = (add: boolean) =>
    guard(async (tagId: unknown, clipId: unknown) => {
      const tag = await tags.repo.find(idArg(tagId, 'tag id'));
      if (!tag) throw new PluginApiError('tag not found');
      const clip = await clips.repo.findLive(idArg(clipId, 'clip id'), clips.now());
      if (!clip) throw new PluginApiError('clip not found');
      const changes = await ctx.db.transaction().execute((trx) => (add ? addTagToClips(trx, [clip.id], tag, clips.now()) : removeTagFromClips(trx, [clip.id], tag.id)));
      emitLinkChanges(ctx.events, changes);
      return true;
    }, false);

  return {
    list: guard(async () => json(await tags.repo.list())),
    get: guard(async (id: unknown) => {
      const tag = await tags.repo.find(idArg(id, 'tag id'));
      return tag ? (await json([tag]))[0] : null;
    }),
    create: guard(async (name: unknown) => tags.create(PLUGIN_PRINCIPAL, textArg(name, 'name'))),
    update: guard(async (id: unknown, changes: unknown) => {
      const tag = await tags.repo.find(idArg(id, 'tag id'));
      if (!tag) throw new PluginApiError('tag not found');
      const c = changes && typeof changes === 'object' && !Array.isArray(changes) ? (changes as Record<string, unknown>) : {};
      const name = c.name === undefined || c.name === null ? undefined : textArg(c.name, 'name');
      if (name !== undefined && name.trim() === '') throw new PluginApiError('tag name cannot be empty');
      const color = c.color === undefined || c.color === null ? undefined : textArg(c.color, 'color');
      if (name === undefined && color === undefined) return true;
      await tags.update(PLUGIN_PRINCIPAL, tag.id, { name, color });
      return true;
    }, false),
    delete: guard(async (id: unknown) => {
      const tag = await tags.repo.find(idArg(id, 'tag id'));
      if (tag) await tags.delete(PLUGIN_PRINCIPAL, tag.id);
      return true;
    }, false),
    add_to_clip: link(true),
    remove_from_clip: link(false),
    get_for_clip: guard(async (clipId: unknown) => {
      const clip = await clips.repo.findLive(idArg(clipId, 'clip id'), clips.now());
      if (!clip) throw new PluginApiError('clip not found');
      return (await clips.one(clip)).tags;
    }),
  };
}

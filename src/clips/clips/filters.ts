// The list parameters shared by GET /clips and GET /clips/hidden-info (companion §3.5, §3.7).
import type { FastifyRequest } from 'fastify';
import type { KeyPrincipal } from '../http/principal.js';
import { queryIds, queryValue, readArchived } from '../http/input.js';
import { effectiveHidden } from '../tags/hidden.js';
import type { TagRepository } from '../tags/repository.js';
import { tagInScope } from '../tags/service.js';
import type { ClipFilter } from './repository.js';
import { scopeTag } from './service.js';

export async function readClipFilter(req: FastifyRequest, caller: KeyPrincipal, tags: TagRepository, now: string, withTypeAndSearch: boolean): Promise<ClipFilter> {
  const tagIds = [...new Set(queryIds(req, 'tag', 'invalid tag id', false))];
  const hiddenIds = queryIds(req, 'hidden', 'invalid hidden tag id', true);
  const archived = readArchived(req);
  const filterTags = await tags.findMany(tagIds);
  const scope = caller.scope ? scopeTag(caller.scope) : null;
  // An unknown tag matches nothing; so does a tag outside a scoped key's subtree.
  const none = filterTags.length !== tagIds.length || (scope !== null && filterTags.some((t) => !tagInScope(caller.scope, t)));
  const hidden = await effectiveHidden(tags, hiddenIds, tagIds.length > 0 ? filterTags : scope ? [scope] : []);
  const filter: ClipFilter = { now, scope, subtrees: filterTags, none, archived, hidden };
  if (withTypeAndSearch) {
    const type = queryValue(req, 'content_type');
    if (type !== undefined && type !== '') filter.contentType = type;
    const search = queryValue(req, 'search');
    if (search) filter.search = search;
  }
  return filter;
}

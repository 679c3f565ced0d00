// /v1/groups, /v1/group… (contract: Groups, Group ownership).
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, seenBy, type LibraryRoutes } from '../http/routes.js';
import { GroupListInput } from './filters.js';
import type { GroupService } from './service.js';
import type { Library } from '../context.js';
import { registerTimeline } from '../timelines/routes.js';
import { registerBulkEdits } from '../massEdit/bulk.js';
import { registerMassEdit } from '../massEdit/routes.js';
import { registerEditMeta } from '../meta/editMeta.js';
import { groupContent } from './content.js';

const TREE_DEFAULT = 50;
const TREE_MAX = 100;

const GroupWriteInput = Type.Object({
  ID: Type.Optional(Type.Integer()),
  Name: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String()),
  CategoryId: Type.Optional(Type.Integer()),
  OwnerId: Type.Optional(Type.Integer()),
  Groups: Type.Optional(Type.Array(Type.Integer(), { description: 'related group ids; an explicit empty list clears' })),
  Tags: Type.Optional(Type.Array(Type.Integer(), { description: 'tag ids; an explicit empty list clears' })),
  Meta: Type.Optional(Type.String({ description: 'JSON object' })),
  URL: Type.Optional(Type.String()),
});


export function registerGroupRoutes(routes: LibraryRoutes, lib: Library, groups: GroupService): void {
  routes.add({
    method: 'GET',
    path: '/v1/groups',
    tag: 'groups',
    summary: 'List groups (preloads Tags and Category)',
    needs: 'read',
    input: GroupListInput,
    handler: async ({ req, input, reply }) => {
      const { rows, page, perPage } = await groups.list(seenBy(req), input);
      return sendList(reply, rows, page, perPage);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/group',
    tag: 'groups',
    summary: 'One group; owned and related resources truncated to 5, other collections to 50',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ req, input }) => groups.read(seenBy(req), input.id),
  });

  routes.add({
    method: 'GET',
    path: '/v1/group/parents',
    tag: 'groups',
    summary: 'Ancestor chain, most distant first, the group last',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ req, input }) => groups.parents(seenBy(req), input.id),
  });

  routes.add({
    method: 'GET',
    path: '/v1/group/tree/children',
    tag: 'groups',
    summary: 'Children of a group (parentId 0 = root groups) with child counts',
    needs: 'read',
    input: Type.Object({ parentId: Type.Optional(Type.Integer()), limit: Type.Optional(Type.Integer()) }),
    handler: async ({ req, input }) => {
      const limit = input.limit === undefined || input.limit < 1 ? TREE_DEFAULT : Math.min(input.limit, TREE_MAX);
      return groups.treeChildren(seenBy(req), input.parentId ?? 0, limit);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/group',
    tag: 'groups',
    summary: 'Create a group, or update it partially when ID is given',
    needs: 'write',
    input: GroupWriteInput,
    handler: async ({ req, reply, input }) => {
      const actor = actorOf(req);
      const group = input.ID ? await groups.update(actor, input.ID, input) : await groups.create(actor, input);
      return sendWrite(req, reply, group, `/group?id=${group.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/group/delete',
    tag: 'groups',
    summary: "Delete a group (409 while it is a user's scope group)",
    needs: 'write',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await groups.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { id: row.id }, '/groups');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/group/clone',
    tag: 'groups',
    summary: 'Copy a group with its associations and relations',
    needs: 'write',
    input: Type.Object({ ID: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const clone = await groups.clone(actorOf(req), input.ID);
      return sendWrite(req, reply, clone, `/group?id=${clone.ID}`);
    },
  });

  const kind = groupContent(groups);
  registerBulkEdits(routes, lib, kind, { base: '/v1/groups', page: '/groups', ops: ['addTags', 'removeTags', 'addMeta'] });
  registerMassEdit(routes, lib, kind, { path: '/v1/groups/massEdit', page: '/groups' });
  registerEditMeta(routes, lib, kind, { path: '/v1/group/editMeta', page: '/group' });

  routes.add({
    method: 'POST',
    path: '/v1/groups/delete',
    tag: 'groups',
    summary: 'Delete several groups',
    needs: 'write',
    input: Type.Object({ ID: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await groups.bulkDelete(actorOf(req), input.ID);
      return sendWrite(req, reply, { ok: true }, '/groups');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/groups/merge',
    tag: 'groups',
    summary: 'Combine every relationship of the losers into the winner and delete the losers',
    needs: 'write',
    input: Type.Object({ Winner: Type.Integer(), Losers: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await groups.merge(actorOf(req), input.Winner, input.Losers);
      return sendWrite(req, reply, { ok: true }, `/group?id=${input.Winner}`);
    },
  });

  registerInlineEdits(routes, groups.named, { base: '/v1/group', page: '/group', needs: 'write', tag: 'groups' });
  registerTimeline(routes, {
    path: '/v1/groups/timeline',
    tag: 'groups',
    source: { label: 'group', counts: (vis, input, buckets) => groups.timeline(vis, input, buckets) },
    input: GroupListInput,
  });
}

// /v1/tags, /v1/tag… (contract: Tags).
import { Type } from '@sinclair/typebox';
import { sendWrite, wantsHtml } from '../../core/http/respond.js';
import { commonListFields } from '../common/list.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { namedTimeline, registerTimeline } from '../timelines/routes.js';
import { tagRecord, type TagService } from './service.js';

export const TagListInput = Type.Object(commonListFields);
const TagRecord = Type.Object({
  ID: Type.Integer(),
  CreatedAt: Type.String(),
  UpdatedAt: Type.String(),
  Name: Type.String(),
  Description: Type.String(),
  Meta: Type.Record(Type.String(), Type.Unknown()),
});

export function registerTagRoutes(routes: LibraryRoutes, tags: TagService): void {
  routes.add({
    method: 'GET',
    path: '/v1/tags',
    tag: 'tags',
    summary: 'List tags (X-Total-Count carries the total)',
    needs: 'read',
    input: TagListInput,
    reply: Type.Array(TagRecord),
    handler: async ({ input, reply }) => {
      const { rows, page, perPage } = await tags.named.list(input);
      const total = await tags.named.count(input);
      return sendList(reply, rows.map(tagRecord), page, perPage, total);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/tags/suggest',
    tag: 'tags',
    summary: 'Typeahead over tags (no total count)',
    needs: 'read',
    input: TagListInput,
    reply: Type.Array(TagRecord),
    handler: async ({ input, reply }) => {
      const { rows, page, perPage } = await tags.named.list(input);
      return sendList(reply, rows.map(tagRecord), page, perPage);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/tag',
    tag: 'tags',
    summary: 'Create a tag, or update it when ID is given',
    needs: 'write',
    input: Type.Object({
      ID: Type.Optional(Type.Integer()),
      Name: Type.Optional(Type.String()),
      Description: Type.Optional(Type.String()),
      Meta: Type.Optional(Type.String({ description: 'JSON object' })),
    }),
    reply: TagRecord,
    handler: async ({ req, reply, input }) => {
      const actor = actorOf(req);
      const row = input.ID ? await tags.update(actor, input.ID, input) : await tags.create(actor, input, !wantsHtml(req));
      return sendWrite(req, reply, tagRecord(row), `/tag?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/tag/delete',
    tag: 'tags',
    summary: 'Delete a tag',
    needs: 'write',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await tags.named.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { ID: row.id }, '/tags');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/tags/delete',
    tag: 'tags',
    summary: 'Delete several tags',
    needs: 'write',
    input: Type.Object({ ID: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await tags.bulkDelete(actorOf(req), input.ID);
      return sendWrite(req, reply, { ok: true }, '/tags');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/tags/merge',
    tag: 'tags',
    summary: 'Move every association of the losers to the winner and delete the losers',
    needs: 'write',
    input: Type.Object({ Winner: Type.Integer(), Losers: Type.Array(Type.Integer()) }),
    handler: async ({ req, reply, input }) => {
      await tags.merge(actorOf(req), input.Winner, input.Losers);
      return sendWrite(req, reply, { ok: true }, '/tags');
    },
  });

  registerInlineEdits(routes, tags.named, { base: '/v1/tag', page: '/tag', needs: 'write', tag: 'tags' });
  registerTimeline(routes, { path: '/v1/tags/timeline', tag: 'tags', source: namedTimeline(tags.named), input: TagListInput });
}

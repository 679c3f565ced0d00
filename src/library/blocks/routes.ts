// /v1/note/block… (contract: Note blocks): typed block CRUD, reorder and rebalance, block type
// descriptors, query-backed table data and calendar events.
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { actorOf, seenBy, type LibraryRoutes } from '../http/routes.js';
import type { BlockService } from './service.js';
import type { CalendarService } from './calendar/events.js';
import { runTableQuery, type SavedQueryRunner } from './table.js';

const Guard = { noteId: Type.Optional(Type.Integer({ description: 'ownership guard: a block of another note is a 400' })) };

export function registerBlockRoutes(routes: LibraryRoutes, blocks: BlockService, calendars: CalendarService, queries: SavedQueryRunner): void {
  routes.add({
    method: 'GET',
    path: '/v1/note/block/types',
    tag: 'blocks',
    summary: 'Block type descriptors with their default content and state',
    needs: 'read',
    input: Type.Object({ noteId: Type.Optional(Type.Integer({ description: 'unknown note gives 404' })) }),
    handler: async ({ req, input }) => blocks.types(seenBy(req), input.noteId),
  });

  routes.add({
    method: 'GET',
    path: '/v1/note/blocks',
    tag: 'blocks',
    summary: "A note's blocks ordered by position",
    needs: 'read',
    input: Type.Object({ noteId: Type.Integer() }),
    handler: async ({ req, input }) => blocks.list(seenBy(req), input.noteId),
  });

  routes.add({
    method: 'GET',
    path: '/v1/note/block',
    tag: 'blocks',
    summary: 'One block',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ req, input }) => blocks.get(seenBy(req), input.id),
  });

  routes.add({
    method: 'POST',
    path: '/v1/note/block',
    tag: 'blocks',
    summary: 'Create a block (201); appended after the last block when position is omitted',
    needs: 'write',
    input: Type.Object({
      noteId: Type.Integer(),
      type: Type.String(),
      position: Type.Optional(Type.String({ description: 'fractional index: any non-empty string of at most 64 bytes, ordered byte-wise' })),
      content: Type.Optional(Type.Unknown({ description: "object; defaults to the type's default content" })),
    }),
    handler: async ({ req, reply, input }) => {
      const block = await blocks.create(actorOf(req), input);
      return sendWrite(req, reply, block, `/note?id=${block.noteId}`, 201);
    },
  });

  routes.add({
    method: 'PUT',
    path: '/v1/note/block',
    tag: 'blocks',
    summary: "Replace a block's content",
    needs: 'write',
    input: Type.Object({ id: Type.Integer(), ...Guard, content: Type.Unknown({ description: 'object, required' }) }),
    handler: async ({ req, input }) => blocks.updateContent(actorOf(req), input.id, input.noteId, input.content),
  });

  routes.add({
    method: 'PATCH',
    path: '/v1/note/block/state',
    tag: 'blocks',
    summary: "Replace a block's view state (checked todos, table sort, calendar view)",
    needs: 'write',
    input: Type.Object({ id: Type.Integer(), ...Guard, state: Type.Unknown({ description: 'object, required' }) }),
    handler: async ({ req, input }) => blocks.updateState(seenBy(req), input.id, input.noteId, input.state),
  });

  const remove = async (ctx: { req: import('fastify').FastifyRequest; reply: import('fastify').FastifyReply; input: { id: number; noteId?: number } }) => {
    const block = await blocks.require(seenBy(ctx.req), ctx.input.id, ctx.input.noteId);
    await blocks.delete(actorOf(ctx.req), block.id, ctx.input.noteId);
    return sendWrite(ctx.req, ctx.reply, undefined, `/note?id=${block.note_id}`, 204);
  };
  routes.add({
    method: 'DELETE',
    path: ['/v1/note/block', '/v1/note/block/delete'],
    tag: 'blocks',
    summary: 'Delete a block (204)',
    needs: 'write',
    input: Type.Object({ id: Type.Integer(), ...Guard }),
    handler: remove,
  });
  routes.add({
    method: 'POST',
    path: '/v1/note/block/delete',
    tag: 'blocks',
    summary: 'Delete a block (204)',
    needs: 'write',
    input: Type.Object({ id: Type.Integer(), ...Guard }),
    handler: remove,
  });

  routes.add({
    method: 'POST',
    path: '/v1/note/blocks/reorder',
    tag: 'blocks',
    summary: 'Set block positions (204); positions is an object of block id to position',
    needs: 'write',
    input: Type.Object({ noteId: Type.Integer(), positions: Type.Unknown({ description: 'object of block id to position string' }) }),
    handler: async ({ req, reply, input }) => {
      await blocks.reorder(actorOf(req), input.noteId, input.positions);
      return sendWrite(req, reply, undefined, `/note?id=${input.noteId}`, 204);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/note/blocks/rebalance',
    tag: 'blocks',
    summary: 'Rewrite block positions evenly spaced, keeping the order (204)',
    needs: 'write',
    input: Type.Object({ noteId: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      await blocks.rebalance(actorOf(req), input.noteId);
      return sendWrite(req, reply, undefined, `/note?id=${input.noteId}`, 204);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/note/block/table/query',
    tag: 'blocks',
    summary: "Run a table block's saved query; extra parameters override its stored queryParams",
    needs: 'read',
    input: Type.Object({ blockId: Type.Integer() }),
    handler: async ({ req, input }) => {
      const block = await blocks.require(seenBy(req), input.blockId);
      const extra = Object.fromEntries(Object.entries(req.query as Record<string, unknown>).filter(([k]) => k.toLowerCase() !== 'blockid'));
      return runTableQuery(queries, req.principal, block, extra);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/note/block/calendar/events',
    tag: 'blocks',
    summary: "A calendar block's events between start and end (YYYY-MM-DD, end inclusive)",
    needs: 'read',
    input: Type.Object({ blockId: Type.Integer(), start: Type.String(), end: Type.String() }),
    handler: async ({ req, input }) => calendars.events(await blocks.require(seenBy(req), input.blockId), input.start, input.end, seenBy(req)),
  });
}

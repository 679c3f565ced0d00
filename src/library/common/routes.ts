// HTTP helpers every list feature shares: a list reply with its paging headers, and the inline
// name/description edits of named entities.
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { badRequest } from '../../core/http/errors.js';
import { sendWrite } from '../../core/http/respond.js';
import type { Actor, Capability } from '../auth/principal.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { setPageHeaders } from './list.js';

/** Sends a list with page headers (and X-Total-Count when given). */
export function sendList<R>(reply: FastifyReply, rows: R[], page: number, perPage: number, total?: number): R[] {
  setPageHeaders(reply, page, perPage, total);
  return rows;
}

const EditInput = Type.Object({
  id: Type.Integer(),
  Name: Type.Optional(Type.String()),
  Description: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
});

/**
 * Registers `<base>/editName?id=` and/or `<base>/editDescription?id=`. The new value is the
 * body's Name/Description (or `value`); the reply is {ok: true, id} (companion §11.1).
 */
/** What inline edits need: a label and the edit itself (NamedEntities). */
export interface InlineEditable {
  kind: { label: string };
  editField(actor: Actor, id: number | undefined, field: 'name' | 'description', value: string): Promise<void>;
}

export function registerInlineEdits(
  routes: LibraryRoutes,
  crud: InlineEditable,
  opts: { base: string; page: string; needs: Capability; tag: string; name?: boolean; description?: boolean },
): void {
  const edits: ['name' | 'description', string][] = [];
  if (opts.name !== false) edits.push(['name', 'editName']);
  if (opts.description !== false) edits.push(['description', 'editDescription']);
  for (const [field, suffix] of edits) {
    routes.add({
      method: 'POST',
      path: `${opts.base}/${suffix}`,
      tag: opts.tag,
      summary: `Inline edit of the ${crud.kind.label} ${field}`,
      needs: opts.needs,
      input: EditInput,
      handler: async ({ req, reply, input }) => {
        const value = (field === 'name' ? input.Name : input.Description) ?? input.value;
        if (value === undefined) throw badRequest(`${field === 'name' ? 'Name' : 'Description'} is required`);
        await crud.editField(actorOf(req), input.id, field, value);
        return sendWrite(req, reply, { ok: true, id: input.id }, `${opts.page}?id=${input.id}`);
      },
    });
  }
}

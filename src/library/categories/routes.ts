// Routes of one carrier kind (contract: Categories, Resource categories, Note types).
import { Type, type TSchema } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { badRequest } from '../../core/http/errors.js';
import { commonListFields } from '../common/list.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { namedTimeline, registerTimeline } from '../timelines/routes.js';
import type { CarrierInput, CarrierService } from './service.js';

export const CarrierListInput = Type.Object(commonListFields);

function writeInput(carriers: CarrierService) {
  const k = carriers.kind;
  const fields: Record<string, TSchema> = {
    ID: Type.Optional(Type.Integer()),
    Name: Type.Optional(Type.String()),
    Description: Type.Optional(Type.String()),
    MetaSchema: Type.Optional(Type.String({ description: 'JSON Schema text; empty clears' })),
    SectionConfig: Type.Optional(Type.String({ description: 'JSON object text' })),
  };
  for (const json of [...Object.keys(k.slots), ...Object.keys(k.texts)]) fields[json] = Type.Optional(Type.String());
  for (const json of Object.keys(k.flags)) fields[json] = Type.Optional(Type.Boolean());
  return Type.Object(fields);
}

export function registerCarrierRoutes(routes: LibraryRoutes, carriers: CarrierService): void {
  const k = carriers.kind;
  const tag = k.entityType;
  const page = (id: number) => `${k.pages.detail}?id=${id}`;
  const input = writeInput(carriers);

  routes.add({
    method: 'GET',
    path: k.api.list,
    tag,
    summary: `List ${k.label} records`,
    needs: 'read',
    input: CarrierListInput,
    handler: async ({ input: q, reply }) => {
      const { rows, page: p, perPage } = await carriers.named.list(q);
      return sendList(reply, rows.map((r) => carriers.record(r)), p, perPage);
    },
  });

  const save = async (ctx: Parameters<Parameters<LibraryRoutes['add']>[0]['handler']>[0], forceUpdate: boolean) => {
    const body = ctx.input as CarrierInput;
    const actor = actorOf(ctx.req);
    const id = body.ID;
    if (forceUpdate && !id) throw badRequest('ID is required');
    const rec = id ? await carriers.update(actor, id, body) : await carriers.create(actor, body);
    return sendWrite(ctx.req, ctx.reply, rec, page(rec.ID as number));
  };

  routes.add({
    method: 'POST',
    path: k.api.create,
    tag,
    summary: k.api.edit ? `Create a ${k.label}` : `Create a ${k.label}, or update it when ID is given`,
    needs: 'editor',
    input,
    handler: (ctx) => save(ctx, false),
  });

  if (k.api.edit) {
    routes.add({ method: 'POST', path: k.api.edit, tag, summary: `Update a ${k.label} (ID required)`, needs: 'editor', input, handler: (ctx) => save(ctx, true) });
  }

  routes.add({
    method: 'POST',
    path: k.api.delete,
    tag,
    summary: `Delete a ${k.label}`,
    needs: 'editor',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input: q }) => {
      const row = await carriers.delete(actorOf(req), q.Id);
      return sendWrite(req, reply, k.deleteReply === 'id' ? { id: row.id } : { ID: row.id }, k.pages.list);
    },
  });

  registerInlineEdits(routes, carriers.named, { base: k.api.inline, page: k.pages.detail, needs: 'editor', tag });
  if (k.api.timeline) registerTimeline(routes, { path: k.api.timeline, tag, source: namedTimeline(carriers.named), input: CarrierListInput });
}

// /v1/templatePartials, /v1/templatePartial…, /v1/templatePresets (contract: Template partials).
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { commonListFields } from '../common/list.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { TEMPLATE_PRESETS } from './presets.js';
import { partialRecord, type PartialService } from './service.js';

export const PartialListInput = Type.Object(commonListFields);
const PartialWrite = Type.Object({
  ID: Type.Optional(Type.Integer()),
  Name: Type.Optional(Type.String({ description: 'kebab-case' })),
  Description: Type.Optional(Type.String()),
  Content: Type.Optional(Type.String({ description: 'HTML with shortcodes' })),
});

export function registerPartialRoutes(routes: LibraryRoutes, partials: PartialService): void {
  routes.add({
    method: 'GET',
    path: '/v1/templatePartials',
    tag: 'templatePartials',
    summary: 'List template partials',
    needs: 'read',
    input: PartialListInput,
    handler: async ({ input, reply }) => {
      const { rows, page, perPage } = await partials.named.list(input);
      return sendList(reply, rows.map(partialRecord), page, perPage);
    },
  });

  routes.add({
    method: 'POST',
    path: ['/v1/templatePartial', '/v1/templatePartial/edit'],
    tag: 'templatePartials',
    summary: 'Create a template partial, or update it when ID is given',
    needs: 'partials',
    input: PartialWrite,
    handler: async ({ req, reply, input }) => {
      const row = await partials.save(actorOf(req), input);
      return sendWrite(req, reply, partialRecord(row), `/templatePartial?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/templatePartial/delete',
    tag: 'templatePartials',
    summary: 'Delete a template partial',
    needs: 'partials',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await partials.named.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { ID: row.id }, '/templatePartials');
    },
  });

  // No editName: renames go through the full update, which validates the kebab-case pattern.
  registerInlineEdits(routes, partials.named, { base: '/v1/templatePartial', page: '/templatePartial', needs: 'partials', tag: 'templatePartials', name: false });

  routes.add({
    method: 'GET',
    path: '/v1/templatePresets',
    tag: 'templatePartials',
    summary: 'Built-in starter template bundles',
    needs: 'read',
    handler: async () => TEMPLATE_PRESETS,
  });
}

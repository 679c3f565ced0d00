// /v1/seriesList, /v1/series… (contract: Series).
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { commonListFields } from '../common/list.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { seriesRecord, type SeriesService } from './service.js';

// Series have no description column, so the list takes Slug instead of Description.
const { Description: _description, ...seriesListFields } = commonListFields;
export const SeriesListInput = Type.Object({ ...seriesListFields, Slug: Type.Optional(Type.String({ description: 'partial match' })) });

export function registerSeriesRoutes(routes: LibraryRoutes, series: SeriesService): void {
  routes.add({
    method: 'GET',
    path: '/v1/seriesList',
    tag: 'series',
    summary: 'List series',
    needs: 'read',
    input: SeriesListInput,
    handler: async ({ input, reply }) => {
      const { rows, page, perPage } = await series.named.list(input);
      return sendList(reply, rows.map(seriesRecord), page, perPage);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/series',
    tag: 'series',
    summary: 'One series',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ input }) => seriesRecord(await series.named.require(input.id)),
  });

  routes.add({
    method: 'POST',
    path: '/v1/series/create',
    tag: 'series',
    summary: 'Create a series (Slug defaults to the trimmed name)',
    needs: 'editor',
    input: Type.Object({ Name: Type.String(), Slug: Type.Optional(Type.String()) }),
    handler: async ({ req, reply, input }) => {
      const row = await series.create(actorOf(req), input);
      return sendWrite(req, reply, seriesRecord(row), `/series?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/series',
    tag: 'series',
    summary: 'Update a series name or shared meta',
    needs: 'editor',
    input: Type.Object({ ID: Type.Integer(), Name: Type.Optional(Type.String()), Meta: Type.Optional(Type.String({ description: 'JSON object' })) }),
    handler: async ({ req, reply, input }) => {
      const row = await series.update(actorOf(req), input.ID, input);
      return sendWrite(req, reply, seriesRecord(row), `/series?id=${row.id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/series/delete',
    tag: 'series',
    summary: 'Delete a series; members keep their effective meta',
    needs: 'editor',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await series.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { id: row.id }, '/resources');
    },
  });

  registerInlineEdits(routes, series.named, { base: '/v1/series', page: '/series', needs: 'editor', tag: 'series', description: false });
}

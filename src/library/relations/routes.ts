// /v1/relationTypes, /v1/relationType…, /v1/relation… (contract: Relation types and relations).
// Every write needs editor or admin ("relation writes"); listing is open to readers.
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import { commonListFields } from '../common/list.js';
import { registerInlineEdits, sendList } from '../common/routes.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import { relationTypeRecord } from './records.js';
import type { RelationTypeService } from './types.js';
import type { RelationService } from './service.js';

export const RelationTypeListInput = Type.Object({
  ...commonListFields,
  FromCategory: Type.Optional(Type.Integer({ description: 'from category id' })),
  ToCategory: Type.Optional(Type.Integer({ description: 'to category id' })),
  ForFromGroup: Type.Optional(Type.Integer({ description: "types whose from category is this group's category" })),
  ForToGroup: Type.Optional(Type.Integer({ description: "types whose to category is this group's category" })),
});

const RelationTypeFields = {
  Name: Type.Optional(Type.String()),
  ReverseName: Type.Optional(Type.String({ description: 'creates or links the type going the other way' })),
  Description: Type.Optional(Type.String()),
  FromCategory: Type.Optional(Type.Integer()),
  ToCategory: Type.Optional(Type.Integer()),
};

export const RelationListInput = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  FromGroupId: Type.Optional(Type.Integer()),
  ToGroupId: Type.Optional(Type.Integer()),
  GroupRelationTypeId: Type.Optional(Type.Integer()),
  GroupId: Type.Optional(Type.Integer({ description: 'either end' })),
});

export function registerRelationRoutes(routes: LibraryRoutes, types: RelationTypeService, relations: RelationService): void {
  routes.add({
    method: 'GET',
    path: '/v1/relationTypes',
    tag: 'relations',
    summary: 'List relation types',
    needs: 'read',
    input: RelationTypeListInput,
    handler: async ({ input, reply }) => {
      const { rows, page, perPage } = await types.list(input);
      return sendList(reply, rows.map((r) => relationTypeRecord(r)), page, perPage);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/relationType',
    tag: 'relations',
    summary: 'One relation type with its categories and back relation',
    needs: 'read',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ input }) => types.read(input.id),
  });

  routes.add({
    method: 'POST',
    path: '/v1/relationType',
    tag: 'relations',
    summary: 'Create a relation type; ReverseName creates or links the back type',
    needs: 'editor',
    input: Type.Object(RelationTypeFields),
    handler: async ({ req, reply, input }) => {
      const t = await types.create(actorOf(req), input);
      return sendWrite(req, reply, t, `/relationType?id=${t.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/relationType/edit',
    tag: 'relations',
    summary: 'Update a relation type (partial)',
    needs: 'editor',
    input: Type.Object({ Id: Type.Integer(), ...RelationTypeFields }),
    handler: async ({ req, reply, input }) => {
      const t = await types.update(actorOf(req), input.Id, input);
      return sendWrite(req, reply, t, `/relationType?id=${t.ID}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/relationType/delete',
    tag: 'relations',
    summary: 'Delete a relation type with its relations',
    needs: 'editor',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await types.named.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { id: row.id }, '/relationTypes');
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/relation',
    tag: 'relations',
    summary: 'Create a relation between two groups (and its reverse edge), or update it when Id is given',
    needs: 'editor',
    input: Type.Object({
      Id: Type.Optional(Type.Integer()),
      FromGroupId: Type.Optional(Type.Integer()),
      ToGroupId: Type.Optional(Type.Integer()),
      GroupRelationTypeId: Type.Optional(Type.Integer()),
      Name: Type.Optional(Type.String()),
      Description: Type.Optional(Type.String()),
    }),
    handler: async ({ req, reply, input }) => {
      const actor = actorOf(req);
      const r = input.Id ? await relations.update(actor, input.Id, input) : await relations.create(actor, input);
      return sendWrite(req, reply, r, `/relation?id=${r.Id}`);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/relation/delete',
    tag: 'relations',
    summary: 'Delete one relation (its reverse edge is a relation of its own)',
    needs: 'editor',
    input: Type.Object({ Id: Type.Integer() }),
    handler: async ({ req, reply, input }) => {
      const row = await relations.named.delete(actorOf(req), input.Id);
      return sendWrite(req, reply, { id: row.id }, '/relations');
    },
  });

  registerInlineEdits(routes, types.named, { base: '/v1/relationType', page: '/relationType', needs: 'editor', tag: 'relations' });
  registerInlineEdits(routes, relations.named, { base: '/v1/relation', page: '/relation', needs: 'editor', tag: 'relations' });
}

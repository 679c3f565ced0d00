// /v1/logs, /v1/log, /v1/logs/entity (contract: Audit log; admin-only under -auth).
import { Type } from '@sinclair/typebox';
import { badRequest, notFound } from '../../core/http/errors.js';
import { pageOf, setPageHeaders } from '../common/list.js';
import type { LibraryRoutes } from '../http/routes.js';
import type { AuditLog } from './service.js';
import { logRecord } from './service.js';

const LEVELS = ['info', 'warning', 'error'];
const ACTIONS = ['create', 'update', 'delete', 'system', 'progress', 'plugin', 'reset'];
const ENTITY_TYPES = ['tag', 'note', 'resource', 'group'];

export const LogListInput = Type.Object({
  page: Type.Optional(Type.Integer()),
  Level: Type.Optional(Type.String({ enum: LEVELS })),
  Action: Type.Optional(Type.String({ enum: ACTIONS })),
  EntityType: Type.Optional(Type.String()),
  EntityID: Type.Optional(Type.Integer()),
  Message: Type.Optional(Type.String()),
  RequestPath: Type.Optional(Type.String()),
  CreatedBefore: Type.Optional(Type.String()),
  CreatedAfter: Type.Optional(Type.String()),
  SortBy: Type.Optional(Type.Array(Type.String())),
});

export function registerAuditRoutes(routes: LibraryRoutes, audit: AuditLog): void {
  routes.add({
    method: 'GET',
    path: '/v1/logs',
    tag: 'logs',
    summary: 'List audit-log entries',
    needs: 'system',
    input: LogListInput,
    handler: async ({ input, reply }) => {
      const { page, perPage, offset } = pageOf(input.page);
      const filter = { ...input, Level: input.Level || undefined, Action: input.Action || undefined };
      const { rows, total } = await audit.list(filter, perPage, offset);
      setPageHeaders(reply, page, perPage);
      return { logs: rows.map(logRecord), totalCount: total, page, perPage };
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/log',
    tag: 'logs',
    summary: 'One audit-log entry',
    needs: 'system',
    input: Type.Object({ id: Type.Integer() }),
    handler: async ({ input }) => {
      const row = await audit.get(input.id);
      if (!row) throw notFound('log entry not found');
      return logRecord(row);
    },
  });

  routes.add({
    method: 'GET',
    path: '/v1/logs/entity',
    tag: 'logs',
    summary: 'Every audit-log entry of one entity',
    needs: 'system',
    input: Type.Object({ entityType: Type.String(), entityId: Type.Integer(), page: Type.Optional(Type.Integer()) }),
    handler: async ({ input, reply }) => {
      if (!ENTITY_TYPES.includes(input.entityType)) throw badRequest(`entityType must be one of ${ENTITY_TYPES.join(', ')}`);
      const { page, perPage, offset } = pageOf(input.page);
      const { rows, total } = await audit.list({ EntityType: input.entityType, EntityID: input.entityId }, perPage, offset);
      setPageHeaders(reply, page, perPage);
      return { logs: rows.map(logRecord), totalCount: total, page, perPage };
    },
  });
}

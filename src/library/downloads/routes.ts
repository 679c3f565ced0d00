// /v1/downloads: the durable download history with its filters, retry and delete
// (contract: Download history).
import { Type } from '@sinclair/typebox';
import { sendWrite } from '../../core/http/respond.js';
import type { LibraryRoutes } from '../http/routes.js';
import { REASONS } from './reasons.js';
import type { DownloadService } from './service.js';

export const HistoryListInput = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  Status: Type.Optional(Type.Array(Type.String({ enum: ['completed', 'failed', 'cancelled', ''] }))),
  URL: Type.Optional(Type.String({ description: 'partial match over URL and resource name' })),
  Retried: Type.Optional(Type.String({ enum: ['yes', 'no', ''] })),
  CreatedBefore: Type.Optional(Type.String()),
  CreatedAfter: Type.Optional(Type.String()),
  CompletedBefore: Type.Optional(Type.String({ description: 'finished at or before; a bare date is midnight at its start' })),
  CompletedAfter: Type.Optional(Type.String({ description: 'finished on or after; a bare date names that day (UTC)' })),
  Reason: Type.Optional(Type.String({ enum: [...REASONS, ''] })),
  Error: Type.Optional(Type.String({ description: 'case-insensitive substring of the error' })),
  SortBy: Type.Optional(Type.Array(Type.String())),
});

const IdsInput = Type.Object({ ids: Type.Array(Type.Integer(), { description: 'history row ids' }) });

export function registerDownloadRoutes(routes: LibraryRoutes, downloads: DownloadService): void {
  routes.add({
    method: 'GET',
    path: '/v1/downloads',
    tag: 'downloads',
    summary: 'The download history (scoped to the caller unless admin)',
    needs: 'read',
    input: HistoryListInput,
    handler: async ({ req, input }) => {
      const p = req.principal;
      return downloads.history.list(input, p.superUser || p.role === 'admin' ? null : p.userId);
    },
  });

  routes.add({
    method: 'POST',
    path: '/v1/downloads/retry',
    tag: 'downloads',
    summary: 'Retry history rows; per-row outcomes, 409 when none could be retried',
    needs: 'write',
    input: IdsInput,
    handler: async ({ req, reply, input }) => sendWrite(req, reply, await downloads.retry(req.principal, input.ids), '/downloads'),
  });

  routes.add({
    method: 'POST',
    path: '/v1/downloads/delete',
    tag: 'downloads',
    summary: 'Delete history rows and their finished queue entries; 409 when none could be deleted',
    needs: 'write',
    input: IdsInput,
    handler: async ({ req, reply, input }) => sendWrite(req, reply, await downloads.delete(req.principal, input.ids), '/downloads'),
  });
}

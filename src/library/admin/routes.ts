// /v1/admin/* (contract: Administration): runtime and data statistics, and the runtime
// settings with their audit trail. Admin-only under -auth.
import { Type } from '@sinclair/typebox';
import type { Library } from '../context.js';
import { actorOf, type LibraryRoutes } from '../http/routes.js';
import type { AdminStats } from './stats.js';

const KeyInput = Type.Object({ key: Type.String(), reason: Type.Optional(Type.String()) });

export function registerAdminRoutes(routes: LibraryRoutes, lib: Library, stats: AdminStats): void {
  routes.add({ method: 'GET', path: '/v1/admin/server-stats', tag: 'admin', summary: 'Server runtime figures', needs: 'system', handler: () => stats.server() });
  routes.add({ method: 'GET', path: '/v1/admin/data-stats', tag: 'admin', summary: 'Entity counts, storage and growth', needs: 'system', handler: () => stats.data() });
  routes.add({
    method: 'GET',
    path: '/v1/admin/data-stats/expensive',
    tag: 'admin',
    summary: 'Storage by type, top tags and categories, orphans, similarity and log figures',
    needs: 'system',
    handler: () => stats.expensive(),
  });

  routes.add({
    method: 'GET',
    path: '/v1/admin/settings',
    tag: 'admin',
    summary: 'Settings editable without a restart, grouped, with boot defaults and bounds',
    needs: 'system',
    handler: async () => lib.settings.list(),
  });

  const audit = async (req: Parameters<typeof actorOf>[0], action: 'update' | 'reset', key: string, before: unknown, after: unknown, reason: string) => {
    const spec = lib.settings.spec(key);
    await lib.audit.note({
      level: 'info',
      action,
      entityType: 'runtime_setting',
      entityName: key,
      message: `${key}: ${String(before)} → ${String(after)}${reason ? ` (reason: ${reason})` : ''}`,
      details: { old: before, new: after, reason, type: spec.type },
      origin: actorOf(req).origin,
    });
  };

  routes.add({
    method: 'PUT',
    path: '/v1/admin/settings/:key',
    tag: 'admin',
    summary: 'Override one setting; value is text parsed by the setting type',
    needs: 'system',
    input: Type.Object({ key: Type.String(), value: Type.String(), reason: Type.Optional(Type.String()) }),
    handler: async ({ req, input }) => {
      const { before, after } = await lib.settings.set(input.key, input.value, input.reason ?? '');
      await audit(req, 'update', input.key, before, after, input.reason ?? '');
      return lib.settings.view(input.key);
    },
  });

  routes.add({
    method: 'DELETE',
    path: '/v1/admin/settings/:key',
    tag: 'admin',
    summary: 'Remove an override; the boot default applies again',
    needs: 'system',
    input: KeyInput,
    handler: async ({ req, input }) => {
      const { before, after } = await lib.settings.reset(input.key);
      await audit(req, 'reset', input.key, before, after, input.reason ?? '');
      return lib.settings.view(input.key);
    },
  });
}

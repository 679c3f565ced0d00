// /plugins… (contract: Plugins). Listing is for viewers, running an action for editors (inside
// their tag scope), everything else for admins.
import type { FastifyReply } from 'fastify';
import { objectBody, pathId, pathText } from '../http/input.js';
import { API, callerOf, type ClipRoutes } from '../http/routes.js';
import type { PluginService } from './service.js';

const noContent = (reply: FastifyReply) => reply.code(204).send();

export function registerPluginRoutes(routes: ClipRoutes, plugins: PluginService): void {
  routes.add({
    method: 'GET',
    path: `${API}/plugins`,
    tag: 'plugins',
    summary: 'Installed plugins, by name',
    needs: 'viewer',
    handler: () => plugins.list(),
  });

  routes.add({
    method: 'GET',
    path: `${API}/plugins/actions`,
    tag: 'plugins',
    summary: 'UI actions of the loaded plugins: lightbox buttons, card actions, global actions',
    needs: 'viewer',
    handler: async () => plugins.actions(),
  });

  routes.add({
    method: 'POST',
    path: `${API}/plugins`,
    tag: 'plugins',
    summary: 'Install a plugin from a URL or an absolute .lua path on the server (same file name: replaced in place)',
    needs: 'admin',
    handler: async ({ req, reply }) => reply.code(201).send(await plugins.install(objectBody(req))),
  });

  routes.add({
    method: 'POST',
    path: `${API}/plugins/check-updates`,
    tag: 'plugins',
    summary: 'Check every URL-installed plugin for a newer version',
    needs: 'admin',
    handler: () => plugins.checkUpdates(),
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/plugins/:id`,
    tag: 'plugins',
    summary: 'Uninstall a plugin with its storage, grants and files',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await plugins.delete(pathId(req, 'plugin'));
      return noContent(reply);
    },
  });

  for (const [verb, enabled] of [['enable', true], ['disable', false]] as const) {
    routes.add({
      method: 'PUT',
      path: `${API}/plugins/:id/${verb}`,
      tag: 'plugins',
      summary: enabled ? 'Enable (load) a plugin; resets its error count' : 'Disable (unload) a plugin; settings and storage stay',
      needs: 'admin',
      handler: async ({ req, reply }) => {
        const id = pathId(req, 'plugin');
        await (enabled ? plugins.enable(id) : plugins.disable(id));
        return noContent(reply);
      },
    });
  }

  routes.add({
    method: 'GET',
    path: `${API}/plugins/:id/storage`,
    tag: 'plugins',
    summary: "A plugin's stored key-value pairs (settings included), keys sorted",
    needs: 'admin',
    handler: async ({ req }) => plugins.storageAll(pathId(req, 'plugin')),
  });

  routes.add({
    method: 'GET',
    path: `${API}/plugins/:id/storage/:key`,
    tag: 'plugins',
    summary: 'One stored value',
    needs: 'admin',
    handler: async ({ req }) => plugins.storageGet(pathId(req, 'plugin'), pathText(req, 'key')),
  });

  routes.add({
    method: 'PUT',
    path: `${API}/plugins/:id/storage/:key`,
    tag: 'plugins',
    summary: 'Set one stored value (how settings are changed)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await plugins.storagePut(pathId(req, 'plugin'), pathText(req, 'key'), objectBody(req));
      return noContent(reply);
    },
  });

  routes.add({
    method: 'POST',
    path: `${API}/plugins/:id/actions/:actionId`,
    tag: 'plugins',
    summary: "Run a plugin's UI action on clips; failures are reported in the result",
    needs: 'editor',
    handler: async ({ req }) => plugins.runAction(callerOf(req), pathId(req, 'plugin'), pathText(req, 'actionId'), objectBody(req)),
  });

  routes.add({
    method: 'POST',
    path: `${API}/plugins/:id/update`,
    tag: 'plugins',
    summary: 'Install the newer version from the plugin source URL (permission changes need approval)',
    needs: 'admin',
    handler: async ({ req }) => plugins.update(pathId(req, 'plugin'), objectBody(req)),
  });
}

// /watch… (contract: Watch folders). Reading is for viewers; every change is admin-only and
// not confined by tag scope (companion §6.5).
import type { FastifyReply } from 'fastify';
import { objectBody, pathId } from '../http/input.js';
import { API, type ClipRoutes } from '../http/routes.js';
import type { WatchService } from './service.js';

const noContent = (reply: FastifyReply) => reply.code(204).send();

export function registerWatchRoutes(routes: ClipRoutes, watch: WatchService): void {
  routes.add({
    method: 'GET',
    path: `${API}/watch`,
    tag: 'watch',
    summary: 'Watch folders, newest first',
    needs: 'viewer',
    handler: () => watch.list(),
  });

  routes.add({
    method: 'GET',
    path: `${API}/watch/status`,
    tag: 'watch',
    summary: 'Global pause, folders watched, folders in total',
    needs: 'viewer',
    handler: () => watch.status(),
  });

  routes.add({
    method: 'GET',
    path: `${API}/watch/:id`,
    tag: 'watch',
    summary: 'One watch folder',
    needs: 'viewer',
    handler: async ({ req }) => watch.get(pathId(req, 'watch folder')),
  });

  routes.add({
    method: 'POST',
    path: `${API}/watch`,
    tag: 'watch',
    summary: 'Watch a folder; with process_existing its files are imported after the answer',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      const folder = await watch.create(objectBody(req));
      // The scan of existing files starts once the 201 has gone out (contract).
      if (folder.process_existing) reply.raw.once('close', () => watch.scanInBackground(folder.id));
      return reply.code(201).send(folder);
    },
  });

  routes.add({
    method: 'PUT',
    path: `${API}/watch/:id`,
    tag: 'watch',
    summary: 'Change a watch folder (only the fields sent; the path cannot change)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      const id = pathId(req, 'watch folder');
      await watch.update(id, objectBody(req));
      return noContent(reply);
    },
  });

  routes.add({
    method: 'DELETE',
    path: `${API}/watch/:id`,
    tag: 'watch',
    summary: 'Stop watching a folder (imported clips stay)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await watch.delete(pathId(req, 'watch folder'));
      return noContent(reply);
    },
  });

  for (const [method, paused] of [['PUT', true], ['DELETE', false]] as const) {
    routes.add({
      method,
      path: `${API}/watch/:id/pause`,
      tag: 'watch',
      summary: paused ? 'Pause a watch folder' : 'Resume a watch folder',
      needs: 'admin',
      handler: async ({ req, reply }) => {
        await watch.setPaused(pathId(req, 'watch folder'), paused);
        return noContent(reply);
      },
    });
    routes.add({
      method,
      path: `${API}/watch/global-pause`,
      tag: 'watch',
      summary: paused ? 'Pause every watch folder' : 'Resume watching (individually paused folders stay paused)',
      needs: 'admin',
      handler: async ({ reply }) => {
        await watch.setGlobalPaused(paused);
        return noContent(reply);
      },
    });
  }

  routes.add({
    method: 'POST',
    path: `${API}/watch/:id/process`,
    tag: 'watch',
    summary: 'Import the files already in the folder now (also while paused)',
    needs: 'admin',
    handler: async ({ req, reply }) => {
      await watch.process(pathId(req, 'watch folder'));
      return noContent(reply);
    },
  });
}

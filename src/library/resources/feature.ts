// Wires resources, versions, previews and similarity: the shared context, the services, the
// routes, the pages and the background workers (stopped when the server closes).
import type { FastifyInstance } from 'fastify';
import type { Layout } from '../../core/http/pages.js';
import { locateVideoTool } from '../../core/media/ffmpeg.js';
import type { Library } from '../context.js';
import type { LibraryRoutes } from '../http/routes.js';
import { registerTimeline } from '../timelines/routes.js';
import type { Static } from '@sinclair/typebox';
import { Crud, crudTimeline, type AnyQuery } from '../common/crud.js';
import { VersionService } from '../versions/service.js';
import { registerVersionRoutes } from '../versions/routes.js';
import { HashWorker } from '../similarity/hasher.js';
import { registerSimilarityAdmin } from '../similarity/admin.js';
import { newLocks, type ResourceContext } from './context.js';
import { registerFileRoutes } from './files.js';
import { RESOURCE_SORT, ResourceListInput } from './filters.js';
import { IngestService } from './ingest.js';
import { MediaOps } from './media-ops.js';
import { registerResourcePages } from './pages.js';
import type { Shortcodes } from '../templates/index.js';
import { PreviewService } from './previews.js';
import { registerResourceRoutes } from './routes.js';
import { ResourceService } from './service.js';
import { Filesystems } from './storage.js';
import { VideoThumbWorker } from './video-worker.js';
import { downloadImporter } from './remote.js';
import type { DownloadService } from '../downloads/service.js';

export function registerResourceFeature(app: FastifyInstance, routes: LibraryRoutes, layout: Layout, lib: Library, downloads: DownloadService, shortcodes: Shortcodes) {
  const config = lib.config;
  const fs = new Filesystems(config);
  const videoTool = locateVideoTool(config.media.ffmpegPath, (m) => console.warn(m));
  const previews = new PreviewService(fs, config.media, videoTool);
  let hasher: HashWorker | null = null;
  let videos: VideoThumbWorker | null = null;
  const ctx: ResourceContext = {
    lib,
    fs,
    previews,
    videoTool,
    ...newLocks(),
    fileChanged: (id, type) => {
      hasher?.enqueue(id, type);
      videos?.enqueue(id, type);
    },
    thresholds: () => ({ similarity: Number(lib.settings.get('hash_similarity_threshold')), ahash: Number(lib.settings.get('hash_ahash_threshold')) }),
  };
  hasher = new HashWorker(ctx, config.hashing);
  videos = new VideoThumbWorker(ctx, config.media);

  const ingest = new IngestService(ctx);
  const resources = new ResourceService(ctx, ingest);
  const versions = new VersionService(ctx, ingest);
  const ops = new MediaOps(ctx, resources, ingest, versions);

  registerResourceRoutes(routes, ctx, resources, ingest, ops, downloads);
  lib.importDownload = downloadImporter(ctx, ingest);
  registerVersionRoutes(routes, ctx, versions);
  registerSimilarityAdmin(routes, lib, lib.jobs, hasher);
  registerFileRoutes(app, fs);
  const crud = new Crud(lib, { table: 'resources', entityType: 'resource', label: 'resource', sort: RESOURCE_SORT });
  registerTimeline(routes, {
    path: '/v1/resources/timeline',
    tag: 'resources',
    source: crudTimeline(crud, (input: Static<typeof ResourceListInput>) => resources.filtered(input) as unknown as AnyQuery),
    input: ResourceListInput,
  });
  registerResourcePages(app, layout, ctx, resources, versions, shortcodes);

  app.addHook('onReady', async () => {
    await fs.sweepTemp();
    hasher?.start();
    videos?.start();
  });
  app.addHook('onClose', async () => {
    await hasher?.stop();
    await videos?.stop();
  });
  return { ctx, resources, versions, hasher, ingest };
}

// Wires resources, versions, previews and similarity: the repositories, the shared context,
// the services, the routes, the pages and the background workers (stopped when the server
// closes). Returns what other features need: the context and ingest (imports, exports) and
// the importer of finished downloads.
import { locateVideoTool } from '../../core/media/ffmpeg.js';
import { locatePdfTool } from '../../core/media/pdf.js';
import type { FeatureHost } from '../context.js';
import type { DownloadService } from '../downloads/service.js';
import { registerTimeline } from '../timelines/routes.js';
import { HashWorker } from '../similarity/hasher.js';
import { registerSimilarityAdmin } from '../similarity/admin.js';
import { SimilarityService } from '../similarity/service.js';
import type { TagService } from '../tags/service.js';
import type { PickRepository } from '../ui/repository.js';
import { registerVersionRoutes } from '../versions/routes.js';
import { VersionService } from '../versions/service.js';
import { newLocks, type ResourceContext } from './context.js';
import { registerFileRoutes } from './files.js';
import { ResourceListInput } from './filters.js';
import { IngestService } from './ingest.js';
import { MediaOps } from './media-ops.js';
import { ResourceMerge } from './merge.js';
import { registerResourcePages } from './pages.js';
import { registerDownloadRoute, registerViewerPage } from './viewer.js';
import { ResourcePresenter } from './present.js';
import type { Shortcodes } from '../templates/index.js';
import { PreviewService } from './previews.js';
import { RemoteImports } from './remote.js';
import { ResourceRemoval } from './removal.js';
import { resourceContent } from './content.js';
import { registerResourceRoutes } from './routes.js';
import { ResourceService } from './service.js';
import { Filesystems } from './storage.js';
import { ResourceStores } from './stores.js';
import { VideoThumbWorker } from './video-worker.js';

export interface ResourceFeatureDeps {
  downloads: DownloadService;
  tags: TagService;
  pickers: PickRepository;
  shortcodes: Shortcodes;
}

export function resourcesFeature(host: FeatureHost, deps: ResourceFeatureDeps) {
  const { app, routes, layout, lib } = host;
  const config = lib.config;
  const stores = new ResourceStores(lib.db, lib.dialect);
  const fs = new Filesystems(config);
  const videoTool = locateVideoTool(config.media.ffmpegPath, (m) => console.warn(m));
  const pdfTool = locatePdfTool();
  const previews = new PreviewService(fs, config.media, videoTool, pdfTool);
  // The background workers hear of every changed file.
  const hasher = new HashWorker({ repo: stores.similarity, resources: stores.resources, fs, settings: lib.settings, dialect: lib.dialect }, config.hashing);
  const videos = new VideoThumbWorker({ resources: stores.resources, previews, videoTool }, config.media);
  const ctx: ResourceContext = {
    lib,
    fs,
    previews,
    videoTool,
    ...newLocks(),
    fileChanged: (id, type) => {
      hasher.enqueue(id, type);
      videos.enqueue(id, type);
    },
    thresholds: () => ({ similarity: Number(lib.settings.get('hash_similarity_threshold')), ahash: Number(lib.settings.get('hash_ahash_threshold')) }),
  };

  const similarity = new SimilarityService(stores.similarity, deps.tags);
  const presenter = new ResourcePresenter({ ...stores, tags: deps.tags });
  const removal = new ResourceRemoval({ ...stores, transactor: lib.transactor, fs, previews });
  const ingest = new IngestService(ctx, stores);
  const resources = new ResourceService({ ctx, stores, ingest, presenter, removal });
  const versions = new VersionService(ctx, stores, ingest, removal);
  const ops = new MediaOps(ctx, resources, ingest, versions, stores);
  const remote = new RemoteImports(ctx, ingest, stores.refs);
  const merge = new ResourceMerge(ctx, stores, resources, removal);

  registerResourceRoutes(routes, { ctx, stores, resources, ingest, remote, merge, ops, similarity, downloads: deps.downloads });
  registerDownloadRoute(routes, ctx, resources);
  registerVersionRoutes(routes, ctx, versions);
  registerSimilarityAdmin(routes, lib, lib.jobs, hasher);
  registerFileRoutes(app, fs, (key, location, vis) => stores.resources.servesFile(key, location, vis));
  registerTimeline(routes, {
    path: '/v1/resources/timeline',
    tag: 'resources',
    source: { label: 'resource', counts: (vis, input, buckets) => resources.timeline(vis, input, buckets) },
    input: ResourceListInput,
  });
  registerViewerPage(app, layout, ctx, resources);
  registerResourcePages(app, layout, { ctx, resources, versions, similarity, pickers: deps.pickers, shortcodes: deps.shortcodes });

  app.addHook('onReady', async () => {
    await fs.sweepTemp();
    hasher.start();
    videos.start();
  });
  app.addHook('onClose', async () => {
    await hasher.stop();
    await videos.stop();
  });
  return { ctx, resources, versions, hasher, ingest, importDownload: remote.importDownload, content: resourceContent(resources, stores) };
}

// Wires the job queue's routes (/v1/jobs/*, the legacy /v1/download/* aliases and the event
// stream) over the library's queue and the download service.
import type { FeatureHost } from '../context.js';
import type { DownloadService } from '../downloads/service.js';
import { registerJobRoutes, type ActionJobSource } from './routes.js';

export function jobsFeature({ routes, lib }: FeatureHost, downloads: DownloadService, actionJobs?: ActionJobSource): void {
  registerJobRoutes(routes, lib.jobs, downloads, actionJobs);
}

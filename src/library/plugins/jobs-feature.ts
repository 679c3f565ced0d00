// Wires the job-shaped plugin surfaces (library-plugins.md §15, §16.6, §17–§19): actions and
// action jobs, mah.start_job, schedules with their scheduler, mah.download with scheduled
// downloads, and the after_job_* hooks. feature.ts calls install() for every plugin's mah and
// attach() once the manager exists.
import type { FeatureHost } from '../context.js';
import type { DownloadService } from '../downloads/service.js';
import { checkHost, egressOf } from './http.js';
import { scopedAccess } from '../auth/scoped-access.js';
import type { ActionJobStore } from './action-jobs.js';
import { registerActionRoutes } from './action-routes.js';
import { ActionRunner } from './action-run.js';
import { ActionTargetsRepository } from './action-targets.repository.js';
import { installActions } from './actions.js';
import { installDownload, ScheduledDownloads, type DownloadDeps } from './download.js';
import { limitFor } from './download-limits.js';
import { JobEventDispatcher } from './job-events.js';
import { installJobs } from './jobs.js';
import type { MahPlugin } from './mah.js';
import type { LoadedPlugin, PluginManager } from './manager.js';
import { registerScheduleRoutes } from './schedule-routes.js';
import { installSchedules, principalFromOwner, Scheduler } from './schedules.js';
import { PluginScheduleRepository } from './schedules.repository.js';
import { ScheduledDownloadRepository } from './scheduled-downloads.repository.js';

export interface PluginJobs {
  install(plugin: MahPlugin, mah: Record<string, unknown>): void;
  attach(manager: PluginManager | null): void;
  start(): void;
  close(): Promise<void>;
}

export function pluginJobsFeature({ app, lib }: FeatureHost, log: (message: string) => void, deps: { actionJobs: ActionJobStore; downloads: DownloadService }): PluginJobs {
  const store = deps.actionJobs;
  const schedules = new PluginScheduleRepository(lib.db, lib.dialect);
  let downloadDeps: DownloadDeps | null = null;
  let scheduler: Scheduler | null = null;
  let jobEvents: JobEventDispatcher | null = null;
  return {
    install(plugin, mah) {
      installActions(plugin, mah);
      installJobs(plugin, mah, store);
      installSchedules(plugin, mah);
      if (downloadDeps) installDownload(plugin as LoadedPlugin, mah, downloadDeps);
    },
    attach(manager) {
      let scheduled: ScheduledDownloads | null = null;
      if (manager) {
        // Queued downloads of a plugin run under its egress policy while it is enabled (§15.1).
        deps.downloads.pluginEgress = (name) => {
          const plugin = manager.get(name);
          if (!plugin) return null;
          const egress = egressOf(plugin);
          return { policy: egress.policy, checkUrl: (u) => checkHost(egress, u) };
        };
        // ...and are paced by its current download_limits (§15.5); a rule's state is keyed by its host rule.
        deps.downloads.pacingRule = (name, url) => {
          const limits = manager.get(name)?.header.manifest?.downloadLimits;
          const rule = limits ? limitFor(limits, url.hostname) : undefined;
          return rule ? { key: rule.host.canonical, rule } : null;
        };
        downloadDeps = {
          downloads: deps.downloads,
          queue: lib.jobs,
          rows: new ScheduledDownloadRepository(lib.db, lib.dialect),
          manager,
          root: () => lib.root,
          owner: (id) => schedules.owner(id),
          log,
        };
        scheduled = new ScheduledDownloads(downloadDeps);
        const fire = scheduled;
        scheduler = new Scheduler({
          manager,
          rows: schedules,
          store,
          tickMs: lib.config.plugins.scheduleTickMs,
          authEnabled: lib.config.auth.enabled,
          root: () => lib.root,
          log,
          onTick: () => fire.fire(),
        });
        const s = scheduler;
        manager.loadHooks.push((plugin, by) => s.declare(plugin, by));
        jobEvents = new JobEventDispatcher(manager, lib.audit, log, async (id) => {
          const u = await schedules.owner(id);
          return u ? principalFromOwner(u) : null;
        });
        jobEvents.watch(lib.jobs);
      }
      const runner = manager && new ActionRunner(manager, store, new ActionTargetsRepository(lib.db, lib.dialect), scopedAccess(lib.db, lib.dialect), lib.config.plugins.maxActionEntities);
      registerActionRoutes(app, runner, store);
      registerScheduleRoutes(app, scheduler, scheduled);
    },
    start() {
      scheduler?.start();
    },
    async close() {
      await scheduler?.close();
      await jobEvents?.close();
      store.close();
    },
  };
}

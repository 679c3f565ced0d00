// The library's file reconciliation (docs/storage.md): the content area of every filesystem
// (`/resources/ab/cd/ef/<sha1><ext>`, the only place the library writes content itself) is
// compared with the rows of resources and versions; files nothing references are removed once
// older than -orphan-grace, with the stale temporary parts of `.tmp/`. Files elsewhere in a
// root (registered with LocalPath or not) are the owner's and never touched.
import { reconcile, walkFiles, ReconcileSchedule, type ReconcileReport, type ReconcileSource, type StoredCandidate } from '../../core/storage/reconcile.js';
import type { FileStore } from '../../core/storage/file-store.js';
import type { Filesystems } from '../resources/storage.js';
import type { FileReferenceRepository } from './repository.js';

const CONTENT_NAME = /^[0-9a-f]{40}(\.[A-Za-z0-9]+)*$/;

function filesystemSource(name: string, key: string | null, store: FileStore, repo: FileReferenceRepository): ReconcileSource {
  return {
    name,
    async *walk(): AsyncIterable<StoredCandidate> {
      for await (const f of walkFiles(`${store.root}/resources`, 4, (n) => CONTENT_NAME.test(n))) {
        yield { key: `/resources/${f.rel.join('/')}`, path: f.path, size: f.size, mtimeMs: f.mtimeMs };
      }
    },
    referenced: (locations) => repo.referenced(key, locations),
    remove: (c) => store.removeUnreferenced(c.key),
    tempDir: store.tempDir,
    tempInUse: (path) => store.isStaging(path),
  };
}

export class FileReconciler {
  readonly schedule: ReconcileSchedule;

  constructor(
    private readonly fs: Filesystems,
    private readonly repo: FileReferenceRepository,
    readonly graceMs: number,
    intervalMs: number,
    log: (msg: string) => void,
  ) {
    this.schedule = new ReconcileSchedule((dryRun) => this.run(dryRun), intervalMs, log);
  }

  private run(dryRun: boolean): Promise<ReconcileReport> {
    const sources = [filesystemSource('main', null, this.fs.main, this.repo)];
    for (const [key, store] of this.fs.alt) sources.push(filesystemSource(key, key, store, this.repo));
    return reconcile(sources, { dryRun, graceMs: this.graceMs });
  }
}

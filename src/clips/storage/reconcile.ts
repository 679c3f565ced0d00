// The clip service's reconciliation (docs/storage.md): blobs no clip row refers to and stale
// upload parts in tmp/ are removed once older than -orphan-grace-ms — at start-up (§2.2.4),
// on every cleanup cycle, and on an admin's request; GET /api/v1/admin/reconcile is the dry run.
import { reconcile, walkFiles, ReconcileSchedule, type ReconcileReport, type ReconcileSource, type StoredCandidate } from '../../core/storage/reconcile.js';
import { ClipRepository } from '../clips/repository.js';
import type { ClipContext } from '../context.js';

const HASH = /^[0-9a-f]{64}$/;

export class ClipReconciler {
  readonly schedule: ReconcileSchedule;
  private readonly repo: ClipRepository;

  constructor(
    private readonly ctx: ClipContext,
    log: (msg: string) => void,
  ) {
    this.repo = new ClipRepository(ctx.db);
    this.schedule = new ReconcileSchedule((dryRun) => this.run(dryRun), 0, log);
  }

  private run(dryRun: boolean): Promise<ReconcileReport> {
    const { blobs } = this.ctx;
    const repo = this.repo;
    const source: ReconcileSource = {
      name: 'blobs',
      async *walk(): AsyncIterable<StoredCandidate> {
        for await (const f of walkFiles(blobs.blobDir, 3, (n) => HASH.test(n))) yield { key: f.name, path: f.path, size: f.size, mtimeMs: f.mtimeMs };
      },
      referenced: (hashes) => repo.referencedAmong(hashes),
      remove: (c) => blobs.removeUnreferenced(c.key, (hash) => repo.referenced(hash)),
      tempDir: blobs.tmpDir,
      tempInUse: (path) => blobs.isStaging(path),
    };
    return reconcile([source], { dryRun, graceMs: this.ctx.config.orphanGraceMs });
  }
}

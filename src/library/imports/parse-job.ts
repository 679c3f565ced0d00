// The `group-import-parse` job: moves the upload to `_imports/<job id>/`, extracts the archive
// (then drops the tar), and writes the index and the plan. A failed parse keeps only its
// meta.json with the error, so GET …/plan can say why; a cancelled one removes everything.
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { JobKind } from '../../core/jobs/queue.js';
import type { RuntimeSettings } from '../admin/settings.js';
import { extractArchive } from './extract.js';
import { buildPlan } from './plan.js';
import type { ImportPlanRepository } from './plan.repository.js';
import type { ImportStore } from './staging.js';

export const IMPORT_PARSE = 'group-import-parse';
const JOB_WARNINGS = 100;

export interface ParsePayload {
  uploadDir: string;
  fileName: string;
}

export function parseKind(deps: { repo: ImportPlanRepository; store: ImportStore; settings: RuntimeSettings }): JobKind<ParsePayload> {
  return {
    pausable: false,
    runningStatus: 'processing',
    async run(payload, ctx, job) {
      const { store } = deps;
      const dir = store.dir(job.id);
      // A retried parse job finds its upload already moved, and the archive gone once extracted.
      await rename(payload.uploadDir, dir).catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') throw new Error('the uploaded archive is no longer staged; upload it again');
        throw e;
      });
      try {
        await store.update(job.id, { id: job.id, status: 'parsing' });
        ctx.phase('reading archive');
        const archive = join(dir, 'archive.tar');
        const index = await extractArchive(dir, archive, {
          maxImportSize: Number(deps.settings.get('max_import_size')),
          signal: ctx.signal,
          onProgress: (bytes, total) => ctx.progress(bytes, total),
        });
        await rm(archive, { force: true });
        if (ctx.signal.aborted) throw new Error('Cancelled');
        ctx.phase('planning');
        await store.writeJson(job.id, 'index.json', index);
        const plan = await buildPlan(deps.repo, job.id, payload.fileName, index);
        await store.writeJson(job.id, 'plan.json', plan);
        await store.update(job.id, { status: 'ready' });
        for (const w of plan.warnings.slice(0, JOB_WARNINGS)) ctx.warn(w);
        ctx.phase('completed');
        return {};
      } catch (e) {
        if (ctx.signal.aborted) {
          await store.remove(dir);
          throw e;
        }
        const message = (e as Error).message || String(e);
        // Keep the reason; drop the extracted bytes.
        for (const sub of ['json', 'blobs', 'previews', 'archive.tar']) await rm(join(dir, sub), { recursive: true, force: true });
        await store.update(job.id, { status: 'failed', error: message }).catch(() => undefined);
        throw e;
      }
    },
  };
}

// Retention of export archives and import staging (companion §1.8, §7.4, §7.5): expired
// archives and staging older than the export retention are removed at start and every five
// minutes, except what a running job still uses.
import type { FastifyInstance } from 'fastify';
import { TERMINAL } from '../../core/jobs/queue.js';
import type { Library } from '../context.js';
import type { ExportStore } from '../exports/store.js';
import type { ImportStore } from '../imports/staging.js';

const INTERVAL_MS = 5 * 60_000;

/** Ids (and upload folders) that unfinished jobs still use. */
function inUse(lib: Library): Set<string> {
  const ids = new Set<string>();
  for (const job of lib.jobs.list()) {
    if (TERMINAL.has(job.status)) continue;
    ids.add(job.id);
    const payload = lib.jobs.payloadOf(job.id) as { importId?: string; uploadDir?: string } | undefined;
    if (payload?.importId) ids.add(payload.importId);
    if (payload?.uploadDir) ids.add(payload.uploadDir.split(/[\\/]/).pop()!);
  }
  return ids;
}

export async function sweepTransfers(lib: Library, exports: ExportStore, imports: ImportStore): Promise<void> {
  const retention = lib.settings.millis('export_retention');
  const busy = inUse(lib);
  await exports.sweep(retention, (id) => busy.has(id)).catch((e: unknown) => console.error('export sweep failed:', e));
  await imports.sweep(retention, (name) => busy.has(name)).catch((e: unknown) => console.error('import sweep failed:', e));
}

export function startTransferSweeps(app: FastifyInstance, lib: Library, exports: ExportStore, imports: ImportStore): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    // No job has run yet: whatever a stopped process left mid-way is settled first.
    await imports.recoverInterrupted().catch((e: unknown) => console.error('import recovery failed:', e));
    await sweepTransfers(lib, exports, imports);
    timer = setInterval(() => void sweepTransfers(lib, exports, imports), INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}

// Finished export archives on the main filesystem: `_exports/<jobId>.tar[.gz]` plus a small
// record `_exports/<jobId>.json` (owner, completion time), so an archive stays downloadable
// for the export retention even after the job has left the queue or the process restarted.
// Expired archives are removed by the sweep; their record stays a week longer so a late
// download answers 410 rather than 404.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/storage/file-store.js';

export const EXPORT_DIR = '_exports';
const RECORD_GRACE_MS = 7 * 24 * 3_600_000;
const JOB_ID = /^[0-9a-f]{16}$/;

export interface ExportRecord {
  id: string;
  ownerId: number | null;
  createdAt: string;
  completedAt: string;
  gzip: boolean;
  /** The archive's path relative to the main filesystem root. */
  resultPath: string;
  size: number;
}

export class ExportStore {
  readonly dir: string;

  constructor(root: string) {
    this.dir = join(root, EXPORT_DIR);
  }

  static resultPath(id: string, gzip: boolean): string {
    return `${EXPORT_DIR}/${id}.tar${gzip ? '.gz' : ''}`;
  }

  archiveFile(id: string, gzip: boolean): string {
    return join(this.dir, `${id}.tar${gzip ? '.gz' : ''}`);
  }

  async save(record: ExportRecord): Promise<void> {
    await writeFileAtomic(join(this.dir, `${record.id}.json`), Buffer.from(JSON.stringify(record)));
  }

  async read(id: string): Promise<ExportRecord | null> {
    if (!JOB_ID.test(id)) return null;
    const text = await readFile(join(this.dir, `${id}.json`), 'utf8').catch(() => null);
    if (text === null) return null;
    try {
      return JSON.parse(text) as ExportRecord;
    } catch {
      return null;
    }
  }

  static expiresAt(record: Pick<ExportRecord, 'completedAt'>, retentionMs: number): number {
    return Date.parse(record.completedAt) + retentionMs;
  }

  /**
   * Removes archives past retention (and their records a week later), and partial archives of
   * jobs that no longer run.
   */
  async sweep(retentionMs: number, running: (id: string) => boolean, now = Date.now()): Promise<number> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      const id = name.slice(0, 16);
      if (!JOB_ID.test(id)) continue;
      if (running(id)) continue;
      if (!name.endsWith('.json')) {
        // Partial archives, and archives whose record was never written (a crash in between).
        if (name.endsWith('.part') || !(await this.read(id))) await rm(join(this.dir, name), { force: true });
        continue;
      }
      const record = await this.read(id);
      if (!record) continue;
      const expires = ExportStore.expiresAt(record, retentionMs);
      if (now > expires) {
        const file = this.archiveFile(id, record.gzip);
        if (await stat(file).catch(() => null)) {
          await rm(file, { force: true });
          removed++;
        }
      }
      if (now > expires + RECORD_GRACE_MS) await rm(join(this.dir, name), { force: true });
    }
    return removed;
  }
}

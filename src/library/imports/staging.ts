// Staged imports on the main filesystem (companion §7.5): `_imports/<parse job id>/` holds the
// uploaded archive until it is extracted, then the extracted JSON, blobs and previews, the
// archive index, the plan, and after an apply its result. meta.json records the owner and the
// import's state, so plans and results survive the job leaving the queue or a restart.
// Folders older than the export retention are swept (at start and with the periodic sweep).
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../core/storage/file-store.js';

export const IMPORT_DIR = '_imports';
const JOB_ID = /^[0-9a-f]{16}$/;
const UPLOAD = /^upload-[0-9a-f]{16}$/;

export type ImportStatus = 'parsing' | 'ready' | 'failed' | 'applying' | 'applied';

export interface ImportMeta {
  id: string;
  ownerId: number | null;
  createdAt: string;
  status: ImportStatus;
  /** File name the archive was uploaded under. */
  archiveName: string;
  size: number;
  error?: string;
  applyJobId?: string;
  appliedAt?: string;
}

export class ImportStore {
  readonly root: string;

  constructor(filePath: string) {
    this.root = join(filePath, IMPORT_DIR);
  }

  static validId(id: string): boolean {
    return JOB_ID.test(id);
  }

  dir(id: string): string {
    if (!JOB_ID.test(id)) throw new Error(`invalid import id ${id}`);
    return join(this.root, id);
  }

  /** A fresh folder for an upload that has no job id yet. */
  async uploadDir(): Promise<string> {
    const dir = join(this.root, `upload-${randomBytes(8).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  file(id: string, name: string): string {
    return join(this.dir(id), name);
  }

  async readMeta(id: string): Promise<ImportMeta | null> {
    if (!JOB_ID.test(id)) return null;
    return readJsonFile<ImportMeta>(this.file(id, 'meta.json'));
  }

  async writeMeta(dir: string, meta: ImportMeta): Promise<void> {
    await writeFileAtomic(join(dir, 'meta.json'), Buffer.from(JSON.stringify(meta)));
  }

  async update(id: string, patch: Partial<ImportMeta>): Promise<ImportMeta> {
    const meta = await this.readMeta(id);
    if (!meta) throw new Error(`import ${id} is gone`);
    const next = { ...meta, ...patch };
    await this.writeMeta(this.dir(id), next);
    return next;
  }

  async readJson<T>(id: string, name: string): Promise<T | null> {
    return readJsonFile<T>(this.file(id, name));
  }

  async writeJson(id: string, name: string, value: unknown): Promise<void> {
    await writeFileAtomic(this.file(id, name), Buffer.from(JSON.stringify(value)));
  }

  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }

  /** Staged imports whose owner `visible` accepts, newest first. */
  async list(visible: (ownerId: number | null) => boolean): Promise<ImportMeta[]> {
    const names = (await readdir(this.root).catch(() => [] as string[])).filter((n) => JOB_ID.test(n));
    const metas = await Promise.all(names.map((n) => this.readMeta(n)));
    return metas.filter((m): m is ImportMeta => m !== null && m.id !== '' && visible(m.ownerId)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * Settles what a stopped process left behind; called at start, before any job can run.
   * Upload folders belonged to requests that died with the process. A parse that was under
   * way can never finish (jobs do not outlive the process): it is marked failed so its plan
   * answers 422 with the reason instead of "not ready" until retention removes it. An apply
   * that was under way goes back to ready (its rows carry archive GUIDs, so applying again
   * merges into them). Extracted bytes an applied import kept, and half-written meta or plan
   * files, are removed. Returns how many imports were settled.
   */
  async recoverInterrupted(): Promise<number> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    let settled = 0;
    for (const name of names) {
      const dir = join(this.root, name);
      if (UPLOAD.test(name)) {
        await this.remove(dir);
        settled++;
        continue;
      }
      if (!JOB_ID.test(name)) continue;
      for (const f of await readdir(dir).catch(() => [] as string[])) if (f.endsWith('.part')) await rm(join(dir, f), { force: true });
      const meta = await this.readMeta(name);
      if (!meta) {
        await this.remove(dir);
        settled++;
      } else if (meta.status === 'parsing') {
        await dropExtracted(dir, true);
        await this.writeMeta(dir, { ...meta, id: name, status: 'failed', error: 'the server stopped while this archive was being parsed; upload it again' });
        settled++;
      } else if (meta.status === 'applying') {
        await this.writeMeta(dir, { ...meta, status: 'ready', error: 'the server stopped during the last apply; applying again completes it' });
        settled++;
      } else if (meta.status === 'applied' || meta.status === 'failed') {
        await dropExtracted(dir, meta.status === 'failed');
      }
    }
    return settled;
  }

  /** Removes staging older than `maxAgeMs`, except imports whose jobs still run. */
  async sweep(maxAgeMs: number, active: (id: string) => boolean, now = Date.now()): Promise<number> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      if (!JOB_ID.test(name) && !UPLOAD.test(name)) continue;
      if (JOB_ID.test(name) && active(name)) continue;
      const dir = join(this.root, name);
      const meta = JOB_ID.test(name) ? await this.readMeta(name) : null;
      const born = meta ? Date.parse(meta.createdAt) : ((await stat(dir).catch(() => null))?.mtimeMs ?? now);
      if (now - born > maxAgeMs) {
        await this.remove(dir);
        removed++;
      }
    }
    return removed;
  }
}

/** The extracted archive content (and, for an import that will never be parsed, the tar). */
async function dropExtracted(dir: string, withArchive: boolean): Promise<void> {
  for (const sub of ['json', 'blobs', 'previews', ...(withArchive ? ['archive.tar', 'index.json', 'plan.json'] : [])]) await rm(join(dir, sub), { recursive: true, force: true });
}

async function readJsonFile<T>(path: string): Promise<T | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

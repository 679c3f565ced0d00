// Deleting resources (companion §3.8): the current file is kept as a backup under /deleted on
// the main filesystem, the rows go in one transaction (versions, hashes, similarity pairs and
// join rows cascade), and a file is removed only when no resource or version still uses it.
import { basename } from 'node:path';
import type { Transactor } from '../../core/db/repository.js';
import { SEE_ALL } from '../auth/visibility.js';
import type { Database } from '../schema/database.js';
import type { VersionRepository } from '../versions/repository.js';
import type { ResourceRow } from './records.js';
import type { ResourceRepository, StoredFile } from './repository.js';
import type { SeriesMembershipRepository } from './series.repository.js';
import type { Filesystems } from './storage.js';
import type { PreviewService } from './previews.js';

export type { StoredFile };

export interface RemovalDeps {
  resources: ResourceRepository;
  versions: VersionRepository;
  series: SeriesMembershipRepository;
  transactor: Transactor<Database>;
  fs: Filesystems;
  previews: PreviewService;
}

export class ResourceRemoval {
  constructor(private readonly deps: RemovalDeps) {}

  /** True when some resource or version row still points at this file. */
  async fileInUse(f: StoredFile): Promise<boolean> {
    return (await this.deps.resources.usesFile(f)) || this.deps.versions.usesFile(f);
  }

  /** Removes each file that nothing references any more. */
  async removeUnusedFiles(files: StoredFile[]): Promise<void> {
    const seen = new Set<string>();
    for (const f of files) {
      const key = `${f.storage ?? ''}:${f.location}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (await this.fileInUse(f)) continue;
      await this.deps.fs
        .get(f.storage)
        .remove(f.location)
        .catch((e: Error) => console.error(`could not remove ${f.location}: ${e.message}`));
    }
  }

  /** Copies the current file to /deleted/<storage key or "deleted">/<hash>__<id>__<owner>___<name>. */
  async backupFile(row: ResourceRow): Promise<void> {
    const source = this.deps.fs.get(row.storage_location);
    if (!(await source.exists(row.location))) return;
    const target = `/deleted/${row.storage_location ?? 'deleted'}/${row.hash}__${row.id}__${row.owner_id ?? 'nil'}___${basename(row.location)}`;
    await this.deps.fs.main.copyTo(source.resolve(row.location), target);
  }

  /** Deletes resources in one transaction, then their unreferenced files and previews. */
  async deleteResources(rows: ResourceRow[]): Promise<void> {
    if (rows.length === 0) return;
    const { resources, versions, series, transactor, previews } = this.deps;
    const ids = rows.map((r) => r.id);
    const versionFiles = await versions.filesOf(ids);
    for (const row of rows) await this.backupFile(row);
    await transactor.run(async (tx) => {
      // The caller has checked every row against its visibility.
      await resources.in(tx).remove(ids, SEE_ALL);
      const inTx = series.in(tx);
      for (const seriesId of new Set(rows.map((r) => r.series_id))) if (seriesId !== null) await inTx.removeIfEmpty(seriesId);
    });
    await this.removeUnusedFiles([...rows.map((r) => ({ location: r.location, storage: r.storage_location })), ...versionFiles]);
    for (const id of ids) await previews.clear(id);
  }
}

// Where a resource's stored file is on disk. The resources feature owns file storage; this is
// the one small place notes, calendar blocks and share pages ask, so it can later delegate to
// the storage module (alternative filesystems included) without touching its callers.
import { resolve, sep } from 'node:path';
import type { LibraryConfig } from '../config.js';

export interface StoredFileRef {
  location: string;
  storage_location: string | null;
}

/** The absolute path of the resource's file on the main filesystem, or null when it has none. */
export function storedResourcePath(config: Pick<LibraryConfig, 'filePath'>, row: StoredFileRef): string | null {
  if (row.storage_location) return null; // alternative filesystems arrive with the resources feature
  const root = resolve(config.filePath);
  const relative = row.location.replace(/^[/\\]+/, '');
  if (relative === '') return null;
  const file = resolve(root, relative);
  return file.startsWith(root + sep) ? file : null;
}

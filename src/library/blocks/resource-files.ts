// Where a resource's stored file is on disk, for notes, calendar blocks and share pages. It
// resolves through the same FileStore rules as the resource storage, alternative filesystems
// included, so a stored location can never point outside its root.
import { FileStore, PathEscapeError } from '../../core/storage/file-store.js';
import type { LibraryConfig } from '../config.js';

export interface StoredFileRef {
  location: string;
  storage_location: string | null;
}

/** The absolute path of the resource's file, or null when it has none or its store is unknown. */
export function storedResourcePath(config: Pick<LibraryConfig, 'filePath' | 'altFs'>, row: StoredFileRef): string | null {
  const root = row.storage_location ? config.altFs[row.storage_location] : config.filePath;
  if (!root || row.location.replace(/^[/\\]+/, '') === '') return null;
  try {
    return new FileStore(root).resolve(row.location);
  } catch (e) {
    if (e instanceof PathEscapeError) return null;
    throw e;
  }
}

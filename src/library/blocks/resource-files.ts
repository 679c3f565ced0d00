// Where a resource's stored file is on disk, for notes, calendar blocks and share pages. It
// goes through the one resolver (src/core/storage/resolver.ts), alternative filesystems
// included, so a stored location can never lead outside its root, not even through a symlink.
import { checkedPath } from '../../core/storage/resolver.js';
import type { LibraryConfig } from '../config.js';

export interface StoredFileRef {
  location: string;
  storage_location: string | null;
}

/** The real path of the resource's file, or null when it has none, is missing or is refused. */
export async function storedResourcePath(config: Pick<LibraryConfig, 'filePath' | 'altFs'>, row: StoredFileRef): Promise<string | null> {
  const root = row.storage_location ? config.altFs[row.storage_location] : config.filePath;
  if (!root) return null;
  return checkedPath(root, row.location, { allowPrivate: true }).catch(() => null);
}

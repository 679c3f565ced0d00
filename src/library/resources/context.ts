// What the resource, version and similarity modules share: the library, its filesystems, the
// preview cache, the locks that serialise work on one hash or one resource, and the hook that
// tells the background workers a resource's current file changed.
import { KeyedLock } from '../../core/storage/keyed-lock.js';
import type { VideoTool } from '../../core/media/ffmpeg.js';
import type { Library } from '../context.js';
import type { Filesystems } from './storage.js';
import type { PreviewService } from './previews.js';
import type { SimilarityThresholds } from './filters.js';

export interface ResourceContext {
  lib: Library;
  fs: Filesystems;
  previews: PreviewService;
  videoTool: VideoTool | null;
  /** Serialises duplicate checks per content hash (companion §3.3). */
  hashLock: KeyedLock;
  /** Serialises changes of one resource's current file (versions, rotate, crop, trim). */
  versionLock: KeyedLock;
  /** Called after a resource's current file changed (new upload, version, rotate …). */
  fileChanged: (resourceId: number, contentType: string) => void;
  thresholds: () => SimilarityThresholds;
}

export function newLocks() {
  return { hashLock: new KeyedLock(), versionLock: new KeyedLock() };
}

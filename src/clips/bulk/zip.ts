// The ZIP of POST /clips/bulk/download: built while it is sent. Each member is read from its
// blob only when the archive reaches it, so no file is held in memory (companion §3.12).
import { ZipFile } from 'yazl';
import { idPrefixedName } from '../clips/filenames.js';
import type { ClipRow } from '../clips/repository.js';
import type { BlobStore } from '../storage/blobs.js';

/** Already-compressed types are stored, everything else deflated. */
export function isCompressed(type: string): boolean {
  return (type.startsWith('image/') && type !== 'image/svg+xml') || type.startsWith('video/') || type === 'application/zip' || type === 'application/gzip';
}

export function clipsZip(clips: readonly ClipRow[], blobs: BlobStore): NodeJS.ReadableStream {
  const zip = new ZipFile();
  for (const clip of clips) {
    zip.addReadStreamLazy(
      idPrefixedName(clip),
      { compress: !isCompressed(clip.content_type), size: clip.size, mtime: new Date(clip.created_at) },
      (cb) => cb(null, blobs.read(clip.content_hash)),
    );
  }
  zip.end();
  return zip.outputStream;
}

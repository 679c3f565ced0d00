// Process-wide settings of the image library, applied by whichever module loads it first.
import type sharpModule from 'sharp';

/** Previews and hashing run on many images; keep libvips' own cache small and its threads few. */
export function configureSharp(sharp: typeof sharpModule): void {
  sharp.cache({ memory: 64, files: 0, items: 100 });
  sharp.concurrency(2);
}

// The temporary file of an upload while it is written: its size and sniffing head taken as the
// bytes go by (`StageHead`), with their SHA-1 where the bytes pass through this thread
// (`StageDigest`, FileStore.stage; the staging thread hashes the direct reader's, staging-worker.ts).
import { createHash } from 'node:crypto';

/** How many leading bytes are kept for content sniffing. */
export const SNIFF_BYTES = 4100;

/** A fully written, fsynced temporary file waiting to be placed or discarded. */
export interface StagedFile {
  tempPath: string;
  /** SHA-1 of the bytes, 40 lowercase hex digits (Decision 10). */
  sha1: string;
  size: number;
  /** The first SNIFF_BYTES bytes. */
  head: Buffer;
}

/** The size and sniffing head of bytes as they go by (the head is copied: callers reuse buffers). */
export class StageHead {
  private readonly head = Buffer.allocUnsafe(SNIFF_BYTES);
  private headSize = 0;
  size = 0;

  update(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.headSize < SNIFF_BYTES) this.headSize += chunk.copy(this.head, this.headSize, 0, SNIFF_BYTES - this.headSize);
  }

  staged(tempPath: string, sha1: string): StagedFile {
    return { tempPath, sha1, size: this.size, head: Buffer.from(this.head.subarray(0, this.headSize)) };
  }
}

/** SHA-1, size and the sniffing head of bytes as they go by. */
export class StageDigest extends StageHead {
  private readonly hash = createHash('sha1');

  override update(chunk: Buffer): void {
    this.hash.update(chunk);
    super.update(chunk);
  }

  digest(tempPath: string): StagedFile {
    return this.staged(tempPath, this.hash.digest('hex'));
  }
}

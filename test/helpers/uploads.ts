// Resources for the tests of features that only use them (notes, blocks, sharing, transfer):
// made through the upload API, never by writing rows, so their hash, location and content type
// are whatever the library itself decides for those bytes.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { TestLibrary } from './library.js';
import { upload } from './resources.js';

export interface UploadedResource {
  ID: number;
  Name: string;
  Hash: string;
  Location: string;
  ContentType: string;
}

/** Uploads one file; text bytes default to a line naming the file, so each name gets its own hash. */
export async function uploadResource(lib: TestLibrary, name: string, data: Buffer | string = `fixture ${name}\n`): Promise<UploadedResource> {
  const r = await upload(lib, [{ name, data: Buffer.isBuffer(data) ? data : Buffer.from(data) }]);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return (r.body as UploadedResource[])[0];
}

/** Deletes the stored file of a resource (main filesystem), as a disk loss would. */
export function loseStoredFile(lib: TestLibrary, resource: Pick<UploadedResource, 'Location'>): void {
  rmSync(join(lib.dir, 'files', resource.Location), { force: true });
}

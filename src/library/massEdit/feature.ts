// Builds the content-edit service (mass edit, bulk endpoints, edit-meta) over the library's
// database. The resource, note and group features register its routes for their own kind.
import type { Library } from '../context.js';
import { ContentRepository } from './repository.js';
import { ContentEdits } from './service.js';

export function contentEdits(lib: Library): ContentEdits {
  return new ContentEdits(new ContentRepository(lib.db, lib.dialect), lib);
}

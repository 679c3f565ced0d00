// Fixture helpers for the similarity tests, for what the API cannot show or make:
// - the stored pair rows (the API shows pairs only through views that apply the runtime
//   threshold, so the storage rule itself — each pair once, smaller id first, every distance
//   up to 11 — is checked on the rows), read-only;
// - a library whose stored pairs are gone while its hashes remain (only a crash between
//   hashing and matching leaves that), the state the recompute job exists to repair. It goes
//   through the similarity repository, the statement the recompute job itself starts with.
import { SimilarityRepository } from '../../src/library/similarity/repository.js';
import type { TestLibrary } from './library.js';

export interface StoredPair {
  resource_id1: number;
  resource_id2: number;
  p_distance: number | null;
}

export async function storedPairs(lib: TestLibrary): Promise<StoredPair[]> {
  return lib.lib.db.selectFrom('resource_similarities').select(['resource_id1', 'resource_id2', 'p_distance']).orderBy('resource_id1').orderBy('resource_id2').execute();
}

export async function dropStoredPairs(lib: TestLibrary): Promise<void> {
  await new SimilarityRepository(lib.lib.db, lib.lib.dialect).removeAllPairs();
}

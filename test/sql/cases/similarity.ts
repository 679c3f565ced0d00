// Representative calls of every similarity repository statement (see ../snapshots.test.ts).
import { SimilarityRepository } from '../../../src/library/similarity/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(SimilarityRepository, [
    ['neighbours', (r) => r.neighbours(7, { similarity: 8, ahash: 0 }, 50)],
    ['neighbours (with the average-hash check)', (r) => r.neighbours(7, { similarity: 8, ahash: 5 }, 12)],
    ['identicalDhash', (r) => r.identicalDhash(7, 50)],
    ['hashOf', (r) => r.hashOf(7)],
    ['countSharing (library-wide)', (r) => r.countSharing([1, 2], 7, null)],
    ['countSharing (owner group)', (r) => r.countSharing([1, 2], 7, 3)],
    ['usageSharing', (r) => r.usageSharing([1, 2], 7, 3, 20)],
    ['countTaggedMembers', (r) => r.countTaggedMembers(3, 7)],
    ['usageInGroup', (r) => r.usageInGroup(3, 7, [1], 20)],
    ['usageInGroup (nothing applied)', (r) => r.usageInGroup(3, 7, [], 20)],
    ['unhashed', (r) => r.unhashed(['image/jpeg', 'image/png'], 100)],
    ['legacyHashed', (r) => r.legacyHashed(100)],
    [
      'saveHash',
      (r) =>
        r.saveHash(7, { a_hash: 'ff00ff00ff00ff00', d_hash: '00ff00ff00ff00ff', a_hash_int: -1, d_hash_int: 2, p_hash_int: 3, p_chunk0: 1, p_chunk1: 2, p_chunk2: 3, p_chunk3: 4, hash_version: 2, status: 'ok' }),
    ],
    ['removeHash', (r) => r.removeHash(7)],
    ['removePairsOf', (r) => r.removePairsOf(7)],
    ['removeAllPairs', (r) => r.removeAllPairs()],
    ['removeFailed', (r) => r.removeFailed()],
    ['countMatchable', (r) => r.countMatchable()],
    ['matchableAfter', (r) => r.matchableAfter(0, 100)],
    ['candidates', (r) => r.candidates(7, [[1, 2], [3], [4], [5, 6]], false)],
    ['candidates (only lower ids)', (r) => r.candidates(7, [[1], [2], [3], [4]], true)],
    ['savePair', (r) => r.savePair(9, 7, { hamming_distance: 3, p_distance: 2, a_distance: null })],
  ]),
];

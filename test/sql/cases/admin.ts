// Representative calls of every administration statement (see ../snapshots.test.ts).
import { SettingsRepository, StatsRepository } from '../../../src/library/admin/repository.js';
import { sqlCases } from '../capture.js';

const T = '2024-01-01T00:00:00.000Z';

export default [
  sqlCases(StatsRepository, [
    ['entityCounts', (r) => r.entityCounts()],
    ['storedBytes', (r) => r.storedBytes()],
    ['createdSince', (r) => r.createdSince(T)],
    ['storageByContentType', (r) => r.storageByContentType(50)],
    ['topTags', (r) => r.topTags(10)],
    ['topCategories', (r) => r.topCategories(10)],
    ['orphans', (r) => r.orphans()],
    ['similarity', (r) => r.similarity()],
    ['logLevels', (r) => r.logLevels(T)],
  ]),
  sqlCases(SettingsRepository, [
    ['all', (r) => r.all()],
    ['save', (r) => r.save('max_upload_size', { value_json: '{"type":"int64","value":1024}', reason: 'tests', updated_at: T })],
    ['remove', (r) => r.remove('max_upload_size')],
  ]),
];

// Representative calls of every watch-folder statement (see ../snapshots.test.ts).
import { WatchRepository } from '../../../src/clips/watch/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(WatchRepository, [
    ['list', (r) => r.list()],
    ['find', (r) => r.find(2)],
    ['findByPath', (r) => r.findByPath('/home/me/Drop')],
    ['insert', (r) => r.insert({ path: '/home/me/Drop', filter_mode: 'all', filter_presets: '[]', filter_regex: '', process_existing: 0, auto_archive: 0, auto_tag_id: null, is_paused: 0, created_at: '2024-06-01T12:00:00.000Z' })],
    ['update', (r) => r.update(2, { is_paused: 1 })],
    ['update (nothing to change)', (r) => r.update(2, {})],
    ['delete', (r) => r.delete(2)],
    ['globalPaused', (r) => r.globalPaused()],
    ['setGlobalPaused', (r) => r.setGlobalPaused(true)],
  ]),
];

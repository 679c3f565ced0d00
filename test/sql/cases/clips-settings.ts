// Representative calls of every clip settings statement (see ../snapshots.test.ts).
import { SettingsRepository } from '../../../src/clips/settings/repository.js';
import { sqlCases } from '../capture.js';

export default [
  sqlCases(SettingsRepository, [
    ['get', (r) => r.get('hidden_tags')],
    ['set', (r) => r.set('hidden_tags', '[3,7]')],
  ]),
];

// Representative calls of every plugin-host statement (see ../snapshots.test.ts).
import { PluginKvRepository } from '../../../src/library/plugins/kv.repository.js';
import { PluginStateRepository } from '../../../src/library/plugins/repository.js';
import { ActionTargetsRepository } from '../../../src/library/plugins/action-targets.repository.js';
import { PluginScheduleRepository } from '../../../src/library/plugins/schedules.repository.js';
import { ScheduledDownloadRepository } from '../../../src/library/plugins/scheduled-downloads.repository.js';
import { sqlCases } from '../capture.js';

const NOW = '2026-01-02T03:04:05.000Z';
const CUTOFF = '2026-01-02T02:57:00.000Z';
const SCOPED = { kind: 'subtree', rootId: 7 } as const;

export default [
  sqlCases(PluginStateRepository, [
    ['all', (r) => r.all()],
    ['find', (r) => r.find('echo-api')],
    ['ensure', (r) => r.ensure('echo-api')],
    ['setEnabled', (r) => r.setEnabled('echo-api', true)],
    ['setSettings', (r) => r.setSettings('echo-api', '{"token":"k"}')],
    ['setGrants', (r) => r.setGrants('echo-api', '{"legacy":true}')],
    ['setScopedAccess', (r) => r.setScopedAccess('echo-api', true)],
  ]),
  sqlCases(PluginKvRepository, [
    ['get', (r) => r.get('kv-fixture', 'greeting')],
    ['set', (r) => r.set('kv-fixture', 'greeting', '"hello"')],
    ['insertIfAbsent', (r) => r.insertIfAbsent('kv-fixture', 'c', '1')],
    ['replaceIf', (r) => r.replaceIf('kv-fixture', 'c', '1', '2')],
    ['delete', (r) => r.delete('kv-fixture', 'greeting')],
    ['keys', (r) => r.keys('kv-fixture', 'ltest:')],
    ['purge', (r) => r.purge('kv-fixture')],
  ]),
  sqlCases(ActionTargetsRepository, [
    ['describe resource', (r) => r.describe(SCOPED, 'resource', [1, 2])],
    ['describe group', (r) => r.describe(SCOPED, 'group', [3])],
    ['describe note', (r) => r.describe({ kind: 'all' }, 'note', [4])],
  ]),
  sqlCases(PluginScheduleRepository, [
    ['list', (r) => r.list('sched-fixture')],
    ['find', (r) => r.find('sched-fixture', 'hourly')],
    ['declare by an operator', (r) => r.declare('sched-fixture', 'hourly', 3600, 'skip', 1, true, NOW)],
    ['declare at start-up', (r) => r.declare('sched-fixture', 'hourly', 3600, 'skip', null, false, NOW)],
    ['due', (r) => r.due(NOW, CUTOFF, 100)],
    ['claim', (r) => r.claim(1, 'token', NOW, CUTOFF)],
    ['release', (r) => r.release(1, 'token')],
    ['advance', (r) => r.advance(1, 'token', NOW)],
    ['record and release', (r) => r.record(1, { lastRunAt: NOW, lastStatus: 'completed', lastError: '' }, { token: 'token', nextDueAt: NOW })],
    ['record', (r) => r.record(1, { lastRunAt: NOW, lastStatus: 'failed', lastError: 'x' }, {})],
    ['owner', (r) => r.owner(1)],
  ]),
  sqlCases(ScheduledDownloadRepository, [
    ['insert', (r) => r.insert('dl-fixture', 'https://files.example.com/a.bin', '{}', NOW, 1)],
    ['list', (r) => r.list('dl-fixture')],
    ['find', (r) => r.find(1)],
    ['due', (r) => r.due(NOW, CUTOFF, 100)],
    ['claim', (r) => r.claim(1, 'token', NOW, CUTOFF)],
    ['release', (r) => r.release(1, 'token')],
    ['failAttempt', (r) => r.failAttempt(1, 'token', 'plugin is not enabled')],
    ['submitted', (r) => r.submitted(1, 'token', 'abcdef0123456789')],
    ['cancelPending', (r) => r.cancelPending(1, CUTOFF)],
  ]),
];

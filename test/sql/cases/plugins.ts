// Representative calls of every plugin-host statement (see ../snapshots.test.ts).
import { PluginKvRepository } from '../../../src/library/plugins/kv.repository.js';
import { PluginStateRepository } from '../../../src/library/plugins/repository.js';
import { sqlCases } from '../capture.js';

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
];

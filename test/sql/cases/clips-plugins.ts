// Representative calls of every clip plugin statement: plugin rows, storage, grants (see ../snapshots.test.ts).
import { PluginRepository } from '../../../src/clips/plugins/repository.js';
import { sqlCases } from '../capture.js';

const now = '2024-06-01T12:00:00.000Z';

export default [
  sqlCases(PluginRepository, [
    ['list', (r) => r.list()],
    ['find', (r) => r.find(4)],
    ['findByFilename', (r) => r.findByFilename('hello.lua')],
    ['insert', (r) => r.insert({ filename: 'hello.lua', name: 'hello', version: '1.0.0', source_url: 'https://example.org/hello.lua', now })],
    ['replace', (r) => r.replace(4, { name: 'hello', version: '1.1.0', source_url: 'https://example.org/hello.lua', now })],
    ['replace (source kept)', (r) => r.replace(4, { name: 'hello', version: '1.1.0', now })],
    ['setState', (r) => r.setState(4, { enabled: false, status: 'error', error_count: 3, last_error: 'boom', now })],
    ['setState (counts kept)', (r) => r.setState(4, { enabled: true, status: 'loaded', now })],
    ['setErrors', (r) => r.setErrors(4, 2, 'timeout')],
    ['setErrors (last error kept)', (r) => r.setErrors(4, 0, null)],
    ['delete', (r) => r.delete(4)],
    ['storageAll', (r) => r.storageAll(4)],
    ['storageKeys', (r) => r.storageKeys(4)],
    ['storageGet', (r) => r.storageGet(4, 'counter')],
    ['storageSize', (r) => r.storageSize(4, 'counter')],
    ['storagePut', (r) => r.storagePut(4, 'counter', '7')],
    ['storageDelete', (r) => r.storageDelete(4, 'counter')],
    ['effectiveGrants', (r) => r.effectiveGrants(4)],
    ['addGrant', (r) => r.addGrant(4, 'fs_read', '/home/me/notes', now)],
  ]),
];

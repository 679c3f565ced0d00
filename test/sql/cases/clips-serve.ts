// Representative calls of every tag-server statement (see ../snapshots.test.ts).
import { ServeRepository } from '../../../src/clips/serve/repository.js';
import { sqlCases } from '../capture.js';

export default [sqlCases(ServeRepository, [['filesAt', (r) => r.filesAt(5, '2024-06-01T12:00:00.000Z')]])];

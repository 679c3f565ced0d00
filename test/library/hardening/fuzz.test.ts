// Issue 12: a seeded, time-bounded fuzz run over every route of the library's OpenAPI
// description. Whatever a client sends, the answer is never a 5xx (501/503/504 are deliberate
// "not available" answers) and the server is still alive afterwards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { fuzzRoutes, routesOf } from '../../helpers/fuzz.js';

const SEED = Number(process.env.FUZZ_SEED ?? 12012);
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 40_000);

let lib: TestLibrary;
beforeAll(async () => {
  lib = await startTestLibrary(['-remote-connect-timeout', '1s', '-max-json-body', '1048576']);
});
afterAll(async () => lib?.close());

describe('fuzzing the library API', () => {
  it('answers no 5xx to malformed bodies, queries and headers, and stays up', async () => {
    const spec = (await lib.json<{ paths: Record<string, Record<string, unknown>> }>('GET', '/v1/openapi.json')).body;
    // Server-Sent Event streams stay open by design.
    const routes = routesOf(spec).filter((r) => !/^\/v1\/(download|jobs)\/events$/.test(r.path));
    const report = await fuzzRoutes(lib.url, routes, { seed: SEED, budgetMs: BUDGET_MS });
    console.log(`library fuzz: seed ${SEED}, ${routes.length} routes, ${report.requests} requests, ${report.serverErrors.length} 5xx, ${report.timeouts} timeouts ${[...new Set(report.slow)].join(', ')}`);
    expect(report.serverErrors, JSON.stringify(report.serverErrors.slice(0, 5), null, 1)).toEqual([]);
    expect((await lib.json('GET', '/v1/tags')).status).toBe(200);
  }, BUDGET_MS + 60_000);
});

// library-plugins.md §32.17 under -auth for the job-shaped surfaces: T-126 (schedule and
// scheduled-download endpoints are admin-only), T-128 (guests cannot run actions), T-129
// (actions for scoped principals), T-133 (schedule ownership), T-134 (action job visibility).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, asBearer, asSession, login, makeAccount, makeGroup, type Account, type Session } from '../../helpers/accounts.js';
import { startTestLibrary, type TestLibrary } from '../../helpers/library.js';
import { SseReader, type SseEvent } from '../../helpers/sse.js';
import { writePlugins } from '../../helpers/plugins.js';

const ACT = `plugin = { name = "act-fixture", version = "1.0" }
function init()
  mah.action({ id = "greet", label = "Greet", entity = "resource", handler = function(ctx) return { success = true } end })
  mah.action({ id = "later", label = "Later", entity = "resource", async = true, handler = function(ctx) return { message = "finished" } end })
  mah.action({ id = "small-batch", label = "Small batch", entity = "group", placement = { "bulk" }, bulk_max = 2,
    handler = function(ctx) return { success = true } end })
end`;

const SCHED = `plugin = { name = "sched-fixture", api_version = 1, capabilities = { "schedule", "kv", "jobs" } }
function init()
  mah.schedule({ id = "hourly", every = "1h", handler = function(job_id) mah.kv.set("ran", true) end })
end`;

type Json = Record<string, unknown>;
let lib: TestLibrary;
let admin: Session;
let admin2: Account;
let editor: Account;
let user1: Account;
let scoped: Account;
let guest: Account;
let g1: number;
let h: number;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-plugin-jobs-auth-'));
  writePlugins(dir, { 'act-fixture': ACT, 'sched-fixture': SCHED });
  lib = await startTestLibrary(['-auth', '-create-admin-user', ADMIN.username, '-create-admin-password', ADMIN.password, '-plugin-path', dir]);
  admin = await login(lib, ADMIN.username, ADMIN.password);
  const g = await makeGroup(lib, admin, 'G');
  g1 = await makeGroup(lib, admin, 'G1', g);
  h = await makeGroup(lib, admin, 'H');
  admin2 = await makeAccount(lib, admin, { role: 'admin' });
  editor = await makeAccount(lib, admin, { role: 'editor' });
  user1 = await makeAccount(lib, admin, { role: 'user' });
  scoped = await makeAccount(lib, admin, { role: 'user', scopeGroupId: g, username: 'scoped' });
  guest = await makeAccount(lib, admin, { role: 'guest', scopeGroupId: g });
  for (const name of ['act-fixture', 'sched-fixture']) {
    expect((await lib.form('/v1/plugin/enable', [['name', name]], { accept: 'application/json', ...asSession(admin) })).status).toBe(200);
  }
}, 120_000);
afterAll(async () => lib?.close());

const as = (a: Account) => asBearer(a.token);
const run = (body: Json, who: Record<string, string>) => lib.json<Json>('POST', '/v1/jobs/action/run', body, who);

async function settled(id: string, who: Record<string, string>): Promise<Json> {
  for (let i = 0; i < 200; i++) {
    const r = await lib.json<Json>('GET', `/v1/jobs/action/job?id=${id}`, undefined, who);
    if (r.body.status === 'completed' || r.body.status === 'failed') return r.body;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`job ${id} did not finish`);
}

describe('job surfaces under -auth', () => {
  it('T-126 schedule and scheduled-download endpoints are admin-only', async () => {
    const refused = { status: 403, body: { error: 'insufficient permissions' } };
    expect(await lib.json('GET', '/v1/plugin/schedules?name=sched-fixture', undefined, as(editor))).toMatchObject(refused);
    expect(await lib.json('POST', '/v1/plugin/schedule/run', { name: 'sched-fixture', scheduleId: 'hourly' }, as(editor))).toMatchObject(refused);
    expect(await lib.json('GET', '/v1/plugin/scheduled-downloads?name=x', undefined, as(editor))).toMatchObject(refused);
    expect(await lib.json('POST', '/v1/plugin/scheduled-downloads/cancel', { id: 1 }, as(editor))).toMatchObject(refused);
    expect((await lib.json('GET', '/v1/plugin/schedules?name=sched-fixture')).status).toBe(401);
  });

  it('T-128 guests may not run actions', async () => {
    await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'act-fixture', allowed: 'yes' }, asSession(admin));
    expect((await run({ plugin: 'act-fixture', action: 'greet', entity_ids: [1] }, as(guest))).status).toBe(403);
    expect((await lib.json<Json[]>('GET', '/v1/plugin/actions?entity=resource', undefined, as(guest))).body).toEqual([]);
    await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'act-fixture', allowed: 'no' }, asSession(admin));
  });

  it('T-129 scoped principals need the plugin opened and their own subtree', async () => {
    const listed = (await lib.json<Json[]>('GET', '/v1/plugin/actions?entity=resource', undefined, as(scoped))).body;
    expect(listed.some((a) => a.plugin_name === 'act-fixture')).toBe(false);
    // The pages follow the listing: no buttons of a closed plugin for the scoped viewer.
    const groupsPage = async (who: Record<string, string>) => (await lib.fetch('/groups', { headers: who })).text();
    expect(await groupsPage(as(scoped))).not.toContain('data-plugin="act-fixture"');
    expect(await groupsPage(as(user1))).toContain('data-plugin-action="small-batch"');
    expect(await run({ plugin: 'act-fixture', action: 'greet', entity_ids: [1] }, as(scoped))).toMatchObject({ status: 403, body: { error: 'this plugin is not available to group-limited accounts' } });
    await lib.json('POST', '/v1/plugin/scopedAccess', { name: 'act-fixture', allowed: 'yes' }, asSession(admin));
    expect(await groupsPage(as(scoped))).toContain('data-plugin-action="small-batch"');
    // Guests may not run actions, so they are never offered one.
    expect(await groupsPage(as(guest))).not.toContain('data-plugin-action');
    expect((await lib.json<Json[]>('GET', '/v1/plugin/actions?entity=group', undefined, as(scoped))).body.map((a) => a.id)).toEqual(['small-batch']);
    expect(await run({ plugin: 'act-fixture', action: 'small-batch', entity_ids: [g1] }, as(scoped))).toMatchObject({ status: 200, body: { success: true } });
    expect(await run({ plugin: 'act-fixture', action: 'small-batch', entity_ids: [g1, h] }, as(scoped))).toMatchObject({ status: 403, body: { error: 'one or more target entities are outside your scope' } });
    expect((await run({ plugin: 'act-fixture', action: 'small-batch', entity_ids: [g1, h] }, as(user1))).status).toBe(200);
  });

  it('T-134 an action job is visible to its submitter and admins only', async () => {
    const r = await run({ plugin: 'act-fixture', action: 'later', entity_ids: [7] }, as(user1));
    expect(r.status).toBe(202);
    const id = r.body.job_id as string;
    expect((await settled(id, as(user1))).status).toBe('completed');
    expect((await lib.json('GET', `/v1/jobs/action/job?id=${id}`, undefined, asSession(admin))).status).toBe(200);
    expect(await lib.json('GET', `/v1/jobs/action/job?id=${id}`, undefined, as(editor))).toMatchObject({ status: 404, body: { error: `action job "${id}" not found` } });
  });

  it('T-133 schedules run as the operator who enabled them and stop without one', async () => {
    const rows = async () => (await lib.json<Json[]>('GET', '/v1/plugin/schedules?name=sched-fixture', undefined, as(admin2))).body;
    expect((await rows())[0]).toMatchObject({ owned: true });
    const sse = new SseReader(await lib.fetch('/v1/jobs/events', { headers: asSession(admin) }));
    const started = await lib.json('POST', '/v1/plugin/schedule/run', { name: 'sched-fixture', scheduleId: 'hourly' }, asSession(admin));
    expect(started.status).toBe(200);
    const isRun = (e: SseEvent) => e.event === 'action_added' && (e.data as { job: Json }).job.actionId === 'schedule:hourly';
    const added = (await sse.until((events) => events.some(isRun))).find(isRun)!;
    await sse.close();
    const jobId = (added.data as { job: Json }).job.id as string;
    await settled(jobId, asSession(admin));
    expect((await lib.json('GET', `/v1/jobs/action/job?id=${jobId}`, undefined, as(user1))).status).toBe(404);

    const me = (await lib.json<{ userId: number }>('GET', '/v1/auth/me', undefined, asSession(admin))).body;
    expect((await lib.json('POST', '/v1/user/delete', { id: me.userId }, as(admin2))).status).toBe(200);
    expect((await rows())[0]).toMatchObject({ owned: false });
    expect(await lib.json('POST', '/v1/plugin/schedule/run', { name: 'sched-fixture', scheduleId: 'hourly' }, as(admin2))).toMatchObject({ status: 409 });
    expect(((await lib.json<Json>('POST', '/v1/plugin/schedule/run', { name: 'sched-fixture', scheduleId: 'hourly' }, as(admin2))).body.error as string)).toContain('has no owner');
    expect((await lib.form('/v1/plugin/disable', [['name', 'sched-fixture']], { accept: 'application/json', ...as(admin2) })).status).toBe(200);
    expect((await lib.form('/v1/plugin/enable', [['name', 'sched-fixture']], { accept: 'application/json', ...as(admin2) })).status).toBe(200);
    expect((await rows())[0]).toMatchObject({ owned: true, registered: true });
  });
});

// POST /v1/mrql/generate (mrql.md §14.8): drafts are linted and never executed; provider failures
// map to 502/504. The provider is replaced by a local stub (no network in tests).
import { describe, expect, it } from 'vitest';
import { checkDraft, generateDraft, RateLimiter } from '../../../src/library/mrql/generate.js';
import { HttpError } from '../../../src/core/http/errors.js';

const cfg = { apiKey: 'k', model: 'm', timeoutMs: 200 };
const reply = (content: unknown, status = 200) =>
  (async () => new Response(JSON.stringify({ choices: [{ message: { content: JSON.stringify(content) } }] }), { status })) as unknown as typeof fetch;

describe('MRQL generation', () => {
  it('returns the draft with validation and lint results, sending only the prompt and syntax', async () => {
    let sent: { messages: { role: string; content: string }[]; model: string } | undefined;
    const spy = (async (_url: string, init: RequestInit) => {
      sent = JSON.parse(String(init.body));
      return new Response(JSON.stringify({ choices: [{ message: { content: JSON.stringify({ query: 'type = resource AND category = "Photos" LIMIT 900', explanation: 'photos' }) } }] }));
    }) as unknown as typeof fetch;
    const r = await generateDraft(cfg, '  big photos  ', spy);
    expect(sent!.model).toBe('m');
    expect(sent!.messages[1]).toEqual({ role: 'user', content: 'big photos' });
    expect(r).toMatchObject({ query: 'type = resource AND category = "Photos" LIMIT 900', explanation: 'photos', valid: false });
    expect(r.errors.map((e) => e.message)).toEqual(['LIMIT must be between 1 and 500 for generated MRQL', 'category requires a numeric ID in generated MRQL']);
    expect((await generateDraft(cfg, 'x', reply({ query: 'type = note AND name ~ "a"', explanation: '' }))).valid).toBe(true);
    expect((await generateDraft(cfg, 'x', reply({ query: 'name = = 1' }))).errors[0]).toMatchObject({ position: 7 });
  });
  it('lints placeholders, empty TEXT terms and large offsets', () => {
    expect(checkDraft('type = resource AND tags = $t').errors[0].message).toBe('generated MRQL must not contain parameter placeholders ($name)');
    expect(checkDraft('type = resource AND TEXT ~ "!!"').errors[0].message).toBe('TEXT search must contain at least one alphanumeric term');
  });
  it('maps provider failures and refuses empty or long prompts', async () => {
    const status = async (f: () => Promise<unknown>) => f().then(() => 200, (e: HttpError) => [e.status, e.message]);
    expect(await status(() => generateDraft(cfg, 'x', reply({}, 500)))).toEqual([502, 'MRQL generation provider error']);
    const slow = ((_u: string, init: RequestInit) => new Promise((_, reject) => init.signal!.addEventListener('abort', () => reject(new Error('aborted'))))) as unknown as typeof fetch;
    expect(await status(() => generateDraft(cfg, 'x', slow))).toEqual([504, 'MRQL generation timed out']);
    expect(await status(() => generateDraft(cfg, '   ', reply({})))).toEqual([400, 'prompt is required']);
    expect((await status(() => generateDraft(cfg, 'x'.repeat(2001), reply({}))) as unknown[])[0]).toBe(400);
  });
  it('allows 10 calls per minute per client', () => {
    const rl = new RateLimiter(10, 60_000);
    for (let i = 0; i < 10; i++) expect(rl.allow('a', 1000 + i)).toBe(true);
    expect(rl.allow('a', 2000)).toBe(false);
    expect(rl.allow('b', 2000)).toBe(true);
    expect(rl.allow('a', 62_000)).toBe(true);
  });
});

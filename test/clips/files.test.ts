// Issue 12, defect 5 for the clip service: a blob replaced by a symlink (to a file outside the
// data directory, or to another blob) is never followed by the download or bulk routes.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestClips, type ClipJson, type TestClips } from './helper.js';

describe('clip blobs are read through the resolver rules', () => {
  let t: TestClips;
  let outside: string;
  beforeAll(async () => {
    t = await startTestClips();
    outside = mkdtempSync(join(tmpdir(), 'stacks-clip-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'SECRET OUTSIDE');
  });
  afterAll(async () => {
    await t.close();
    rmSync(outside, { recursive: true, force: true });
  });

  it('refuses a blob that became a symlink out of the data directory', async () => {
    const clip = (await t.upload<ClipJson>(t.admin, { filename: 'a.txt', type: 'text/plain', data: 'original bytes' })).body;
    const ok = await t.raw(t.admin, 'GET', `/clips/${clip.id}/data`);
    expect(ok.status).toBe(200);
    expect(ok.text).toBe('original bytes');
    const blob = t.svc.ctx.blobs.pathOf(createHash('sha256').update('original bytes').digest('hex'));
    unlinkSync(blob);
    symlinkSync(join(outside, 'secret.txt'), blob);
    const r = await t.raw(t.admin, 'GET', `/clips/${clip.id}/data`);
    expect(r.status).not.toBe(200);
    expect(r.text).not.toContain('SECRET');
    const ranged = await t.raw(t.admin, 'GET', `/clips/${clip.id}/data`, undefined, { range: 'bytes=0-5' });
    expect(ranged.text).not.toContain('SECRET');
  });
});

// The blob journal's flush (journal.ts) against a real store and database: which entries are
// due, what settling does to each, and that a blob staged for the journal but committed without
// it is made durable the ordinary way. The crash cases run the service as a process
// (test/clips/journal.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../core/db/connect.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import type { ClipDatabase } from '../schema/database.js';
import { clipMigrations } from '../schema/migrations.js';
import { BlobStore } from './blobs.js';
import { BlobJournal, JOURNAL_BUDGET_BYTES, SETTLE_AFTER_MS } from './journal.js';
import { BlobJournalRepository } from './journal.repository.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-journal-'));
const handle = connect<ClipDatabase>({ kind: 'sqlite', dsn: join(dir, 'clips.db') });
const blobs = new BlobStore(dir);
const repo = new BlobJournalRepository(handle.db);
const referenced = new Set<string>();
const journal = new BlobJournal(handle.db, blobs, async (hashes) => new Set(hashes.filter((h) => referenced.has(h))));
beforeAll(() => migrateToLatest(handle.db as unknown as Kysely<unknown>, clipMigrations));
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Stages `text` as a small upload does and commits it with its journal entry, written `age` ms ago. */
async function journaled(text: string, age = 0): Promise<string> {
  const staged = await blobs.stageBytes(Buffer.from(text), 1024);
  expect(staged.journal?.toString()).toBe(text);
  await blobs.commit(staged, () => repo.add({ hash: staged.hash, written_at: Date.now() - age, bytes: staged.journal! }), () => true, { journaled: true });
  referenced.add(staged.hash);
  return staged.hash;
}

const entries = async () => (await repo.due(Number.MAX_SAFE_INTEGER, '', 100)).map((e) => e.hash).sort();

describe('blob journal flush', () => {
  it('settles entries old enough for the kernel to have written them back, and leaves younger ones', async () => {
    const old = await journaled('written long ago', SETTLE_AFTER_MS + 1000);
    const young = await journaled('written just now');
    expect(await journal.flush()).toBe(1);
    expect(await entries()).toEqual([young]);
    expect(readFileSync(blobs.pathOf(old), 'utf8')).toBe('written long ago');
    expect(await journal.flush({ all: true })).toBe(1);
    expect(await entries()).toEqual([]);
  });

  it('flushes young entries too once the journaled bytes pass the budget, and counts down what it flushed', async () => {
    const young = await journaled('young but over budget');
    blobs.journaledBytes = JOURNAL_BUDGET_BYTES + 100;
    expect(await journal.flush()).toBe(1);
    expect(await entries()).toEqual([]);
    expect(blobs.journaledBytes).toBe(JOURNAL_BUDGET_BYTES + 100 - 'young but over budget'.length);
    expect(readFileSync(blobs.pathOf(young), 'utf8')).toBe('young but over budget');
    blobs.journaledBytes = 0;
  });

  it('counts an entry flushed by age off the budget, so the budget measures what is still journaled', async () => {
    blobs.journaledBytes = 0;
    await journaled('old enough', SETTLE_AFTER_MS + 1000);
    expect(blobs.journaledBytes).toBe('old enough'.length);
    await journaled('young');
    expect(await journal.flush()).toBe(1);
    expect(blobs.journaledBytes).toBe('young'.length);
    await journal.flush({ all: true });
    expect(blobs.journaledBytes).toBe(0);
  });

  it('drops the entry of content no row refers to any more without writing its file back', async () => {
    const hash = await journaled('deleted since');
    referenced.delete(hash);
    rmSync(blobs.pathOf(hash));
    expect(await journal.flush({ all: true, verify: true })).toBe(1);
    expect(await entries()).toEqual([]);
    expect(() => readFileSync(blobs.pathOf(hash))).toThrow();
  });

  it('keeps an entry written again after the flush read it', async () => {
    const hash = await journaled('written twice');
    const first = (await repo.entry(hash))!;
    await repo.add({ ...first, written_at: first.written_at + 1 });
    await repo.remove([first]);
    expect(await entries()).toEqual([hash]);
    await journal.flush({ all: true });
    expect(await entries()).toEqual([]);
  });

  it('fsyncs a blob staged for the journal but committed without one, and journals nothing', async () => {
    const staged = await blobs.stageBytes(Buffer.from('committed the ordinary way'), 1024);
    const before = blobs.journaledBytes;
    await blobs.commit(staged, async () => undefined, () => true);
    expect(blobs.journaledBytes).toBe(before);
    expect(readFileSync(blobs.pathOf(staged.hash), 'utf8')).toBe('committed the ordinary way');
    expect(readdirSync(blobs.tmpDir)).toEqual([]);
  });
});

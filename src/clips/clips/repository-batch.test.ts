// Uploads written together (group commit): each row inside its own savepoint of one
// transaction, so a row that fails is rolled back alone and the others commit, with the
// trigger-maintained search index kept for every row that stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '../../core/db/connect.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import type { ClipDatabase } from '../schema/database.js';
import { clipMigrations } from '../schema/migrations.js';
import { ClipRepository, type NewClipRow } from './repository.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-clip-batch-'));
let handle: DbHandle<unknown>;
let repo: ClipRepository;

beforeAll(async () => {
  handle = connect({ kind: 'sqlite', dsn: join(dir, 'clips.db') });
  await migrateToLatest(handle.db as Kysely<unknown>, clipMigrations);
  repo = new ClipRepository(handle.db as Kysely<ClipDatabase>);
});
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const row = (filename: string, hash: string): NewClipRow => ({
  filename,
  content_type: 'text/plain',
  size: 5,
  content_hash: hash,
  text_content: `words of ${filename}`,
  is_archived: 0,
  expires_at: null,
  created_at: '2026-11-26T12:00:00.000Z',
});

describe('ClipRepository.insertOrFindManySync', () => {
  it('commits the good rows of a batch and answers the failing one with its error alone', () => {
    const db = handle.sqlite!;
    const broken = { ...row('broken.txt', 'c'.repeat(64)), filename: null as unknown as string };
    const out = repo.insertOrFindManySync(db, [
      { row: row('first.txt', 'a'.repeat(64)), dedup: true },
      { row: broken, dedup: true },
      { row: row('third.txt', 'b'.repeat(64)), dedup: true },
    ]);
    expect(out.map((o) => o.ok)).toEqual([true, false, true]);
    expect(String((out[1] as { error: unknown }).error)).toMatch(/NOT NULL/);
    const names = db.prepare('SELECT filename FROM clips ORDER BY id').pluck().all();
    expect(names).toEqual(['first.txt', 'third.txt']);
    // The search index holds exactly the rows that stayed.
    const found = db.prepare("SELECT rowid FROM clip_search WHERE clip_search MATCH '\"words of\"' ORDER BY rowid").pluck().all();
    expect(found).toEqual(db.prepare('SELECT id FROM clips ORDER BY id').pluck().all());
  });

  it('finds a live clip with the same bytes written earlier in the same batch (dedup)', () => {
    const db = handle.sqlite!;
    const hash = 'd'.repeat(64);
    const out = repo.insertOrFindManySync(db, [
      { row: row('one.txt', hash), dedup: true },
      { row: row('two.txt', hash), dedup: true },
      { row: row('three.txt', hash), dedup: false },
    ]);
    const values = out.map((o) => (o.ok ? o.value : null));
    expect(values.map((v) => v?.created)).toEqual([true, false, true]);
    expect(values[1]?.row.id).toBe(values[0]?.row.id);
    expect(values[2]?.row.id).not.toBe(values[0]?.row.id);
  });
});

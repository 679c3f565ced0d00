// Clip list statements timed in process (no HTTP), to see which statement of a list request
// costs what: npx tsx bench/clips-queries.ts [--clips 100000] [--runs 30] [--db FILE]
// With --db an existing fixture file is reused (it is made on the first run).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { connect } from '../src/core/db/connect.js';
import { migrateToLatest } from '../src/core/db/migrate.js';
import { ClipRepository, type ClipFilter } from '../src/clips/clips/repository.js';
import { clipMigrations } from '../src/clips/schema/migrations.js';
import type { ClipDatabase } from '../src/clips/schema/database.js';
import { TagRepository } from '../src/clips/tags/repository.js';
import { argText as arg } from './args.js';

const CLIPS = Number(arg('clips', '100000'));
const RUNS = Number(arg('runs', '30'));
const file = process.argv.includes('--db') ? arg('db', '') : join(mkdtempSync(join(tmpdir(), 'clip-queries-')), 'clips.db');

const fresh = !existsSync(file);
const handle = connect<ClipDatabase>({ kind: 'sqlite', dsn: file });
await migrateToLatest(handle.db as unknown as Kysely<unknown>, clipMigrations);
if (fresh) {
  const db = new Database(file);
  const now = Date.now();
  db.transaction(() => {
    const tag = db.prepare("INSERT INTO tags (name, color, created_at) VALUES (?, '#78716C', ?)");
    for (let t = 0; t < 10; t++) tag.run(t === 0 ? 'bench' : `bench/t${t}`, new Date(now).toISOString());
    const clip = db.prepare("INSERT INTO clips (filename, content_type, size, content_hash, text_content, created_at) VALUES (?, 'text/plain', 47, 'h', ?, ?)");
    const link = db.prepare('INSERT INTO clip_tags (clip_id, tag_id, added_at) VALUES (?, ?, ?)');
    for (let i = 0; i < CLIPS; i++) {
      const at = new Date(now - (CLIPS - i) * 1000).toISOString();
      const id = clip.run(`clip-${i}.txt`, `fixture clip body with some words to search in #${i}`, at).lastInsertRowid;
      link.run(id, 1 + (i % 10), at);
    }
  })();
  db.close();
}
const clips = new ClipRepository(handle.db);
const tags = new TagRepository(handle.db);
const now = new Date().toISOString();
const root = { id: 1, name: 'bench' };
const leaf = { id: 5, name: 'bench/t4' };
const hiddenTag = [3];

async function time(label: string, run: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await run();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  console.log(`${label.padEnd(40)} p50 ${ms[Math.floor(ms.length / 2)].toFixed(1)} ms  p90 ${ms[Math.floor(ms.length * 0.9)].toFixed(1)} ms`);
}
const page = { limit: 50, offset: 0 };
const filters: Record<string, ClipFilter> = {
  'none': { now },
  'subtree (root)': { now, subtrees: [root] },
  'leaf tag': { now, subtrees: [leaf] },
  'search': { now, search: '#4242' },
  'search (every clip matches)': { now, search: 'words' },
  'search (2 characters)': { now, search: '#9' },
  'hidden': { now, hidden: hiddenTag },
};
for (const [name, f] of Object.entries(filters)) {
  await time(`list ${name}`, () => clips.list(f, page));
  await time(`count ${name}`, () => clips.count(f));
  console.log(`  total ${await clips.count(f)}, first ids ${(await clips.list(f, { limit: 3, offset: 0 })).map((c) => c.id).join(',')}`);
}
await time('tag counts (all 10)', () => tags.counts([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], now));
await time('hiddenInfo (root, hide 3)', () => clips.hiddenInfo({ now, subtrees: [root] }, hiddenTag));
await handle.close();

// The trigger-maintained list structures of migration 002 (clip_tree, tag_stats, clip_search)
// must equal what they summarise after every kind of write: links added and removed, tags
// created above existing ones, subtrees renamed (the service's park-then-rename steps), tags
// deleted (children stay), clips deleted (links cascade) and everything replaced (restore).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type DbHandle } from '../../core/db/connect.js';
import { migrateToLatest } from '../../core/db/migrate.js';
import type Database from 'better-sqlite3';
import { clipMigrations } from './migrations.js';

const dir = mkdtempSync(join(tmpdir(), 'stacks-list-indexes-'));
let handle: DbHandle<unknown>;
let db: Database.Database;

beforeAll(async () => {
  handle = connect({ kind: 'sqlite', dsn: join(dir, 'clips.db') });
  await migrateToLatest(handle.db as Kysely<unknown>, clipMigrations);
  db = handle.sqlite!;
});
afterAll(async () => {
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
});

const now = '2024-06-01T12:00:00.000Z';
const tag = (name: string) => Number(db.prepare("INSERT INTO tags (name, color, created_at) VALUES (?, '#78716C', ?)").run(name, now).lastInsertRowid);
const clip = (filename: string, text: string | null = null) =>
  Number(db.prepare("INSERT INTO clips (filename, content_type, size, content_hash, text_content, created_at) VALUES (?, 'text/plain', 1, 'h', ?, ?)").run(filename, text, now).lastInsertRowid);
const link = (clipId: number, tagId: number) => db.prepare('INSERT INTO clip_tags (clip_id, tag_id, added_at) VALUES (?, ?, ?)').run(clipId, tagId, now);
const idOf = (name: string) => Number(db.prepare('SELECT id FROM tags WHERE name = ?').pluck().get(name));

/** The service's subtree rename: park every name, then give each its new one. */
function renameSubtree(from: string, to: string): void {
  const moving = db.prepare("SELECT id, name FROM tags WHERE name = ? OR (name >= ? AND name < ?)").all(from, `${from}/`, `${from}0`) as { id: number; name: string }[];
  db.transaction(() => {
    for (const t of moving) db.prepare('UPDATE tags SET name = char(1) || id WHERE id = ?').run(t.id);
    for (const t of moving) db.prepare('UPDATE tags SET name = ? WHERE id = ?').run(to + t.name.slice(from.length), t.id);
  })();
}

/** What clip_tree and tag_stats must hold, computed from tags and clip_tags alone. */
function expected() {
  const tree = db
    .prepare(
      `SELECT a.id AS tag_id, ct.clip_id, COUNT(*) AS n FROM tags a JOIN tags d ON d.name = a.name OR (d.name >= a.name || '/' AND d.name < a.name || '0')
       JOIN clip_tags ct ON ct.tag_id = d.id GROUP BY a.id, ct.clip_id ORDER BY 1, 2`,
    )
    .all();
  const stats = db
    .prepare(
      `SELECT t.id AS tag_id, (SELECT COUNT(*) FROM clip_tags WHERE tag_id = t.id) AS links,
       (SELECT COUNT(DISTINCT ct.clip_id) FROM tags d JOIN clip_tags ct ON ct.tag_id = d.id WHERE d.name = t.name OR (d.name >= t.name || '/' AND d.name < t.name || '0')) AS tree
       FROM tags t ORDER BY 1`,
    )
    .all();
  return { tree, stats };
}

function actual() {
  return {
    tree: db.prepare('SELECT tag_id, clip_id, n FROM clip_tree ORDER BY 1, 2').all(),
    stats: db.prepare('SELECT tag_id, links, tree FROM tag_stats ORDER BY 1').all(),
  };
}

const searched = (term: string) => db.prepare('SELECT rowid FROM clip_search WHERE clip_search MATCH ? ORDER BY rowid').pluck().all(`"${term}"`);

describe('list structures kept by triggers', () => {
  it('follow links, new ancestors, subtree moves, tag and clip deletes', () => {
    const [c1, c2, c3, c4] = [clip('a'), clip('b'), clip('c'), clip('d')];
    const work = tag('work');
    const client = tag('work/client');
    const deep = tag('work/client/x');
    const home = tag('home');
    link(c1, client);
    link(c2, deep);
    link(c3, work);
    link(c4, home);
    link(c1, home);
    expect(actual()).toEqual(expected());
    expect(db.prepare('SELECT tree FROM tag_stats WHERE tag_id = ?').pluck().get(work)).toBe(3);

    // An orphan subtag, then its missing parent created: the parent holds its clips at once.
    const orphan = tag('misc/loose');
    link(c4, orphan);
    tag('misc');
    expect(actual()).toEqual(expected());
    expect(db.prepare('SELECT tree FROM tag_stats WHERE tag_id = ?').pluck().get(idOf('misc'))).toBe(1);

    // work/client moves under home: home now holds c1 twice (its own link and x's subtree).
    renameSubtree('work/client', 'home/client');
    expect(actual()).toEqual(expected());
    expect(db.prepare('SELECT n FROM clip_tree WHERE tag_id = ? AND clip_id = ?').pluck().get(home, c1)).toBe(2);
    // And back, and a root renamed to a name below its old one.
    renameSubtree('home/client', 'work/client');
    renameSubtree('work', 'w/ork');
    expect(actual()).toEqual(expected());

    db.prepare('DELETE FROM clip_tags WHERE clip_id = ? AND tag_id = ?').run(c1, home);
    db.prepare('DELETE FROM tags WHERE id = ?').run(client);
    expect(actual()).toEqual(expected());
    expect(db.prepare('SELECT COUNT(*) FROM tags WHERE id = ?').pluck().get(deep)).toBe(1);

    db.prepare('DELETE FROM clips WHERE id IN (?, ?)').run(c2, c4);
    expect(actual()).toEqual(expected());
  });

  it('survive a restore-style replacement with foreign keys off', () => {
    const rows = db.prepare('SELECT * FROM clip_tags').all() as { clip_id: number; tag_id: number; added_at: string }[];
    const tags = db.prepare('SELECT * FROM tags').all() as { id: number; name: string; color: string; created_at: string }[];
    db.pragma('foreign_keys = OFF');
    db.transaction(() => {
      db.exec('DELETE FROM clip_tags; DELETE FROM tags;');
      for (const t of tags) db.prepare('INSERT INTO tags (id, name, color, created_at) VALUES (?, ?, ?, ?)').run(t.id, t.name, t.color, t.created_at);
      for (const r of rows) db.prepare('INSERT INTO clip_tags (clip_id, tag_id, added_at) VALUES (?, ?, ?)').run(r.clip_id, r.tag_id, r.added_at);
    })();
    db.pragma('foreign_keys = ON');
    expect(actual()).toEqual(expected());
    expect((actual().tree as unknown[]).length).toBeGreaterThan(0);
  });

  it('keep the search index equal to the clips through rename, new text and delete', () => {
    const id = clip('Quarterly Report.txt', 'budget figures');
    expect(searched('report')).toContain(id);
    expect(searched('figures')).toContain(id);
    db.prepare('UPDATE clips SET filename = ?, text_content = ? WHERE id = ?').run('notes.md', 'holiday plans', id);
    expect(searched('report')).not.toContain(id);
    expect(searched('holiday')).toContain(id);
    db.prepare('DELETE FROM clips WHERE id = ?').run(id);
    expect(searched('holiday')).not.toContain(id);
    db.exec("INSERT INTO clip_search (clip_search, rank) VALUES ('integrity-check', 1)");
  });
});

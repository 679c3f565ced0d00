// Deterministic MRQL benchmark fixtures (mrql.md §23.1–23.2), generated row by row from the
// profile size and loaded in bulk straight into the database (never through HTTP).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

export interface Profile {
  name: string;
  resources: number;
  notes: number;
  groups: number;
  tags: number;
}

export const PROFILES: Record<string, Profile> = {
  tiny: { name: 'tiny', resources: 240, notes: 60, groups: 32, tags: 8 },
  '100k': { name: '100k', resources: 100_000, notes: 25_000, groups: 200, tags: 64 },
  '1m': { name: '1m', resources: 1_000_000, notes: 250_000, groups: 2_000, tags: 64 },
};

const EPOCH = Date.UTC(2024, 0, 1);
const at = (n: number) => new Date(EPOCH + n * 1000).toISOString();
const pad = (n: number, w: number) => String(n).padStart(w, '0');
const MIME = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'video/mp4', 'application/pdf', 'text/plain', 'audio/mpeg'];

export const RESOURCE_TEMPLATE = '<article>[property path="Name"]</article>';
export const GROUP_TEMPLATE = `<section>[property path="Name"] [mrql query='type = "resource" ORDER BY id ASC LIMIT 1' format="compact"]</section>`;

type Row = Record<string, unknown>;
type Sink = (table: string, rows: Row[]) => Promise<void>;

/** Owner of resource/note n: spread over every group except the empty group 3. */
function ownerOf(n: number, groups: number): number {
  let g = 1 + (n % (groups - 1));
  if (g >= 3) g++;
  return g;
}

/** Parent of group g: 4 … G/2 under group 1 (shallow), the second half in chains of 32 under group 2 (deep). */
function parentOf(g: number, groups: number): number | null {
  const half = Math.floor(groups / 2);
  if (g <= 3) return null;
  if (g <= half) return 1;
  const i = g - half - 1;
  return i % 32 === 0 ? 2 : g - 1;
}

/** Streams every table of the fixture to `sink` in batches. */
export async function generate(p: Profile, sink: Sink, batch = 1000): Promise<void> {
  // Buffers are flushed together in dependency order, so no row lands before what it references.
  const ORDER = ['tags', 'groups', 'group_tags', 'resources', 'resource_tags', 'groups_related_resources', 'image_hashes', 'resource_similarities', 'notes', 'note_tags', 'groups_related_notes', 'resource_notes'];
  const rows: Record<string, Row[]> = Object.fromEntries(ORDER.map((t) => [t, []]));
  const flush = async () => {
    for (const table of ORDER) {
      const b = rows[table];
      rows[table] = [];
      if (b.length) await sink(table, b);
    }
  };
  const add = async (table: string, row: Row) => {
    rows[table].push(row);
    if (rows[table].length >= batch) await flush();
  };

  for (let t = 1; t <= p.tags; t++) {
    const name = t === 1 ? 'common' : t === 2 ? 'rare' : `benchmark-tag-${pad(t, 3)}`;
    await add('tags', { id: t, name, description: '', meta: '{}', created_at: at(t), updated_at: at(t) });
  }
  await flush();
  for (let g = 1; g <= p.groups; g++) {
    const name = g === p.groups ? 'benchmark-leaf' : `benchmark-group-${pad(g, 6)}`;
    await add('groups', { id: g, name, description: `group ${g}`, meta: '{"tier":1}', owner_id: parentOf(g, p.groups), category_id: 1, created_at: at(g), updated_at: at(g) });
  }
  await flush();
  for (let g = 1; g <= p.groups; g++) await add('group_tags', { group_id: g, tag_id: 3 + (g % (p.tags - 2)) });
  for (let n = 1; n <= p.resources; n++) {
    const big = n % 100 === 0;
    await add('resources', {
      id: n,
      name: `benchmark-resource-${pad(n, 9)}`,
      description: `resource ${n}${n % 5 === 0 ? ' benchmarkneedle' : ''}`,
      original_name: `file-${n}.bin`,
      content_type: MIME[n % 8],
      file_size: big ? 50_000_001 + n : 1000 + ((n * 7919) % 5_000_000),
      width: 100 + (n % 1000),
      height: 100 + (n % 700),
      hash: `h${n}`,
      meta: JSON.stringify({ rating: n % 5, region: `r${n % 7}`, active: n % 2 === 0 }),
      owner_id: ownerOf(n, p.groups),
      resource_category_id: 1,
      created_at: at(n),
      updated_at: at(n),
    });
    if (n % 4 !== 0) await add('resource_tags', { resource_id: n, tag_id: 1 });
    if (n % 10 === 0) await add('resource_tags', { resource_id: n, tag_id: 2 + ((n / 10) % (p.tags - 1)) });
    if (n % 2 === 0) await add('groups_related_resources', { group_id: 1 + (n % p.groups), resource_id: n });
    if (n <= 100_000) await add('image_hashes', { resource_id: n, d_hash: n.toString(16).padStart(16, '0'), a_hash: '', status: 'done' });
  }
  await flush();
  for (let k = 2; k <= Math.min(p.resources, 100_001); k++) {
    await add('resource_similarities', { resource_id1: 1, resource_id2: k, hamming_distance: k % 16, p_distance: null, a_distance: k % 8 });
  }
  await flush();
  for (let n = 1; n <= p.notes; n++) {
    await add('notes', {
      id: n,
      name: `benchmark-note-${pad(n, 9)}`,
      description: `note ${n} benchmarkneedle`,
      meta: JSON.stringify({ rating: n % 5 }),
      note_type_id: 1,
      owner_id: ownerOf(n, p.groups),
      created_at: at(n),
      updated_at: at(n),
    });
    if (n % 3 !== 0) await add('note_tags', { note_id: n, tag_id: 1 });
    await add('groups_related_notes', { group_id: 1 + (n % p.groups), note_id: n });
    await add('resource_notes', { resource_id: 1 + ((n * 7) % p.resources), note_id: n });
  }
  await flush();
}

/** Bulk load into a migrated SQLite file: one transaction, prepared statements, then ANALYZE. */
export async function loadSqlite(file: string, p: Profile): Promise<void> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const stmts = new Map<string, Database.Statement>();
  db.exec('BEGIN');
  prepareCarriers((sqlText, params) => db.prepare(sqlText).run(...params));
  await generate(p, async (table, rows) => {
    const cols = Object.keys(rows[0]);
    const key = `${table}:${cols.join(',')}`;
    let st = stmts.get(key);
    if (!st) {
      st = db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
      stmts.set(key, st);
    }
    for (const r of rows) st.run(...cols.map((c) => r[c] as never));
  });
  db.exec('COMMIT');
  db.exec('ANALYZE');
  db.close();
}

/** One value in COPY's text format: `\\N` for null, backslash escapes for the separators. */
function copyField(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  return String(v).replace(/[\\\t\n\r]/g, (ch) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[ch]!);
}

/**
 * Bulk load into a migrated PostgreSQL database with COPY FROM STDIN (one COPY per batch, the
 * batches in dependency order, all in one transaction), then VACUUM ANALYZE. The rows are the
 * same `generate` yields to the SQLite loader, so both engines hold the identical fixture.
 */
export async function loadPostgres(dsn: string, p: Profile): Promise<void> {
  const c = new pg.Client({ connectionString: dsn });
  await c.connect();
  try {
    await c.query('BEGIN');
    const carriers: [string, unknown[]][] = [];
    prepareCarriers((sqlText, params) => carriers.push([sqlText, params]));
    for (const [sqlText, params] of carriers) {
      let i = 0;
      await c.query(sqlText.replace(/\?/g, () => `$${++i}`), params);
    }
    await generate(
      p,
      async (table, rows) => {
        const cols = Object.keys(rows[0]);
        const lines = rows.map((r) => `${cols.map((col) => copyField(r[col])).join('\t')}\n`);
        await pipeline(Readable.from([lines.join('')]), c.query(copyFrom(`COPY ${table} (${cols.join(', ')}) FROM STDIN`)));
      },
      20_000,
    );
    for (const t of ['tags', 'groups', 'resources', 'notes', 'note_types']) {
      await c.query(`SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT COALESCE(max(id), 1) FROM ${t}))`);
    }
    await c.query('COMMIT');
    // VACUUM as well: autovacuum does it to any table that grew this much, and until it has
    // run the visibility map is empty, so no index-only scan is possible.
    await c.query('VACUUM ANALYZE');
  } finally {
    await c.end();
  }
}

/** Templates of §23.2: resource category 1 and note type 1 render a card, group category 1 nests an [mrql]. */
function prepareCarriers(run: (sqlText: string, params: unknown[]) => void): void {
  run('UPDATE resource_categories SET custom_mrql_result = ? WHERE id = 1', [RESOURCE_TEMPLATE]);
  run('UPDATE categories SET custom_mrql_result = ? WHERE id = 1', [GROUP_TEMPLATE]);
  run(`INSERT INTO note_types (id, name, description, custom_mrql_result, created_at, updated_at) VALUES (1, 'Benchmark', '', ?, ?, ?)`, [RESOURCE_TEMPLATE, at(0), at(0)]);
}

// The MRQL test fixture of mrql.md §24 (a documented fixture helper). It writes the tables
// directly because the API cannot create this state: rows with fixed ids and creation times in
// the past (the language tests compare ids and relative dates), perceptual-hash pairs and image
// hashes (computed by the similarity worker from real image bytes), share tokens and link
// tables at once. Clock of the MRQL engine frozen at 2025-02-01T12:00:00Z, TZ=UTC.
import { sql, type Kysely } from 'kysely';
import type { TestLibrary } from './library.js';

export const FROZEN = new Date('2025-02-01T12:00:00Z');

const at = (d: string) => (d.length === 10 ? `${d}T12:00:00.000Z` : new Date(d).toISOString());

export async function loadFixture(t: TestLibrary): Promise<void> {
  const db = t.lib.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const ins = (table: string, rows: Record<string, unknown>[]) => db.insertInto(table).values(rows).execute();
  const stamp = (created: string) => ({ created_at: at(created), updated_at: at(created) });

  await ins('tags', [
    { id: 1, name: 'red', ...stamp('2023-01-01') },
    { id: 2, name: 'blue', ...stamp('2023-01-01') },
    { id: 3, name: 'green', ...stamp('2023-01-01') },
  ]);
  for (const id of [7, 8, 9]) await ins('categories', [{ id, name: `cat${id}`, ...stamp('2023-01-01') }]);
  await db.updateTable('resource_categories').set({ custom_mrql_result: '<b>[property path="Name"]</b>', custom_css: '.rc1{}' }).where('id', '=', 1).execute();
  await ins('resource_categories', [{ id: 2, name: 'Documents', ...stamp('2023-01-01') }]);
  await ins('note_types', [
    { id: 1, name: 'Meeting', ...stamp('2023-01-01') },
    { id: 2, name: 'Review', ...stamp('2023-01-01') },
  ]);
  const group = (id: number, name: string, owner: number | null, category: number | null, url: string | null, description: string, meta: object, created: string) => ({
    id, name, owner_id: owner, category_id: category, url, description, meta: JSON.stringify(meta), ...stamp(created),
  });
  await ins('groups', [group(1, 'Studio', null, 7, 'https://studio.example', 'Main studio', { region: 'eu', tier: 2 }, '2023-01-01')]);
  await ins('groups', [group(2, 'Projects', 1, 8, null, '', { tier: 1 }, '2023-01-02')]);
  await ins('groups', [group(3, 'Alpha', 2, 8, null, '', { region: 'us' }, '2023-01-03')]);
  await ins('groups', [group(4, 'Archive', null, null, '', 'Old things', {}, '2023-01-04')]);
  await ins('groups', [group(5, 'Beta', 1, null, null, '', {}, '2023-01-05')]);
  await ins('group_tags', [
    { group_id: 1, tag_id: 1 },
    { group_id: 2, tag_id: 2 },
    { group_id: 5, tag_id: 1 },
  ]);
  const res = (id: number, name: string, ct: string, size: number, w: number, h: number, owner: number | null, cat: number, orig: string, hash: string, description: string, meta: object, created: string) => ({
    id, name, content_type: ct, file_size: size, width: w, height: h, owner_id: owner, resource_category_id: cat, original_name: orig, hash, description, meta: JSON.stringify(meta), ...stamp(created),
  });
  await ins('resources', [
    res(1, 'sunrise.jpg', 'image/jpeg', 2000000, 4000, 3000, 3, 1, 'IMG_0001.JPG', 'h1', 'Morning light over the harbor', { rating: 5, camera: 'X100' }, '2024-03-10'),
    res(2, 'sunset.png', 'image/png', 500000, 800, 600, 2, 1, 'IMG_0002.PNG', 'h1', 'Evening light', { rating: 3 }, '2024-06-01'),
    res(3, 'report_q1.pdf', 'application/pdf', 120000, 0, 0, 4, 2, 'q1-final.pdf', 'h3', 'Quarterly revenue report', { rating: 'high' }, '2023-12-31'),
    res(4, 'notes.txt', 'text/plain', 900, 0, 0, null, 2, 'list.txt', 'h4', 'Groceries and errands', {}, '2025-01-15'),
    res(5, 'Clip 100%.mp4', 'video/mp4', 3221225472, 1920, 1080, 1, 1, 'teaser.mp4', 'h5', 'Launch teaser', { rating: 4.5, draft: true }, '2024-03-11'),
  ]);
  await ins('resource_tags', [
    { resource_id: 1, tag_id: 1 },
    { resource_id: 1, tag_id: 2 },
    { resource_id: 2, tag_id: 1 },
    { resource_id: 4, tag_id: 3 },
  ]);
  await ins('groups_related_resources', [
    { group_id: 1, resource_id: 1 },
    { group_id: 2, resource_id: 3 },
    { group_id: 1, resource_id: 5 },
    { group_id: 2, resource_id: 5 },
  ]);
  const note = (id: number, name: string, description: string, owner: number | null, type: number | null, start: string | null, share: string | null, meta: object, created: string) => ({
    id, name, description, owner_id: owner, note_type_id: type, start_date: start ? at(start) : null, share_token: share, meta: JSON.stringify(meta), ...stamp(created),
  });
  await ins('notes', [
    note(1, 'Kickoff', 'Planning the alpha launch', 3, 1, '2024-04-01T09:00:00Z', 'sharetoken1', { priority: 'high' }, '2024-04-01'),
    note(2, 'Retro', 'What went well', null, 2, null, null, { priority: 'LOW', count: 7 }, '2025-01-20'),
    note(3, 'Todo', '', 1, null, null, null, {}, '2025-01-31'),
  ]);
  await ins('note_tags', [
    { note_id: 1, tag_id: 2 },
    { note_id: 3, tag_id: 1 },
    { note_id: 3, tag_id: 3 },
  ]);
  await ins('groups_related_notes', [
    { group_id: 2, note_id: 1 },
    { group_id: 1, note_id: 3 },
  ]);
  await ins('resource_notes', [
    { resource_id: 1, note_id: 1 },
    { resource_id: 1, note_id: 2 },
    { resource_id: 3, note_id: 2 },
  ]);
  await ins('resource_similarities', [
    { resource_id1: 1, resource_id2: 2, hamming_distance: 3, p_distance: 2, a_distance: 1 },
    { resource_id1: 1, resource_id2: 5, hamming_distance: 9, p_distance: null, a_distance: null },
    { resource_id1: 2, resource_id2: 5, hamming_distance: 6, p_distance: 11, a_distance: 9 },
  ]);
  await ins('image_hashes', [
    { resource_id: 1, d_hash: 'aaaa' },
    { resource_id: 2, d_hash: 'aaaa' },
    { resource_id: 5, d_hash: 'bbbb' },
  ]);
  await ins('saved_mrql_queries', [
    { id: 1, name: 'by tag', query: 'type = resource AND tags = $tag ORDER BY id', description: '', ...stamp('2025-01-01') },
    { id: 2, name: 'broken', query: 'type = resource AND bogus = 1', description: '', ...stamp('2025-01-01') },
  ]);
  if (t.lib.dialect.kind === 'postgres') {
    for (const table of ['tags', 'categories', 'resource_categories', 'note_types', 'groups', 'resources', 'notes', 'saved_mrql_queries', 'resource_similarities', 'image_hashes']) {
      await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT max(id) FROM ${sql.table(table)}))`.execute(db);
    }
  }
  t.mrql.service.engine.clock = () => new Date(FROZEN.getTime());
}

// Sample data for the clip interface's browser tests and screenshots: real images, text,
// Markdown and JSON clips, other files, a tag tree, a duplicate made through a watch folder
// (uploads never duplicate), and names that would run as markup if the page did not escape.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { waitFor, type ClipJson, type TestClips } from '../helper.js';

export const HOSTILE_NAME = '<img src=x onerror=window.pwned=1>.txt';
export const HOSTILE_TAG = 'odd/<b>bold &amp; <i>';

async function picture(hue: string, accent: string, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="320">
    <rect width="480" height="320" fill="${hue}"/>
    <circle cx="360" cy="90" r="50" fill="${accent}"/>
    <path d="M0 320 L150 150 L260 250 L340 180 L480 320 Z" fill="#1d232b" opacity=".55"/>
    <text x="24" y="48" font-family="sans-serif" font-size="28" fill="#fff">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export interface SampleClips {
  tags: Record<string, number>;
  clips: Record<string, ClipJson>;
  watchDir: string;
}

export async function sampleClips(t: TestClips): Promise<SampleClips> {
  const key = t.admin;
  const tags: Record<string, number> = {};
  for (const name of ['work/client-a', 'work/client-b', 'personal/recipes', 'personal/travel', 'private', HOSTILE_TAG]) {
    const r = await t.req<{ id: number }>(key, 'POST', '/tags', { name });
    if (r.status !== 201) throw new Error(`tag ${name}: ${r.status} ${r.text}`);
  }
  for (const tag of (await t.req<{ id: number; name: string }[]>(key, 'GET', '/tags')).body) tags[tag.name] = tag.id;

  const clips: Record<string, ClipJson> = {};
  const add = async (name: string, data: string | Buffer, type: string, tag?: string) => {
    const r = await t.upload(key, { filename: name, type, data });
    if (r.status !== 201) throw new Error(`clip ${name}: ${r.status} ${r.text}`);
    if (tag) await t.req(key, 'PUT', `/clips/${r.body.id}/tags/${tags[tag]}`);
    clips[name] = r.body;
    return r.body;
  };
  await add('harbour.png', await picture('#2a66d6', '#ffd166', 'Harbour'), 'image/png', 'personal/travel');
  await add('meeting notes.md', '# Kick-off\n\n- scope agreed\n- next call on Friday\n- send the draft contract\n', 'text/markdown', 'work/client-a');
  await add('invoice-2026-03.pdf', '%PDF-1.4\n% sample invoice\n', 'application/pdf', 'work/client-b');
  await add('forest.png', await picture('#2f9e55', '#f4f1de', 'Forest'), 'image/png', 'personal/travel');
  await add('config.json', '{"theme":"dark","retries":3,"endpoints":["a","b"]}', 'application/json', 'work/client-a');
  await add('pancakes.txt', 'Pancakes: 200 g flour, 2 eggs, 300 ml milk, a pinch of salt. Rest 20 minutes.', 'text/plain', 'personal/recipes');
  await add('diary.txt', 'A private note that hidden tags keep out of sight.', 'text/plain', 'private');
  await add('archive.zip', Buffer.from('PK\u0003\u0004 not really a zip'), 'application/zip');
  await add(HOSTILE_NAME, '<script>window.pwned=2</script> text that must stay text', 'text/plain', HOSTILE_TAG);

  // A duplicate: the watch folder imports without deduplicating.
  const watchDir = join(t.dir, 'inbox');
  mkdirSync(watchDir, { recursive: true });
  writeFileSync(join(watchDir, 'pancakes copy.txt'), 'Pancakes: 200 g flour, 2 eggs, 300 ml milk, a pinch of salt. Rest 20 minutes.');
  const w = await t.req(key, 'POST', '/watch', { path: watchDir, process_existing: true, auto_tag_id: tags['personal/recipes'] });
  if (w.status !== 201) throw new Error(`watch: ${w.status} ${w.text}`);
  await waitFor(async () => (await t.req<{ groups: unknown[] }>(key, 'GET', '/dedup')).body.groups.length === 1, 10000, 'the watch import');
  return { tags, clips, watchDir };
}

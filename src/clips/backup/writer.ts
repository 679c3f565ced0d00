// GET /backup (companion §10.1): a ZIP of manifest.json, database.sql (one INSERT per row,
// api_keys never, secret settings never), blobs/<sha256> once per distinct content, and the
// installed plugin sources. Everything is read from one snapshot; blob deletions wait until
// the archive is written (to a temp file, so the answer can carry its length).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { isTextType } from '../clips/content-type.js';
import type { ClipContext } from '../context.js';
import { APP_VERSION } from '../version.js';
import { BACKUP_TABLES, isSensitiveSetting, Snapshot } from './repository.js';
import { insertStatement } from './sql-text.js';

export const FORMAT_VERSION = 1;
/** Plugin files carried in a backup: plain names ending .lua (companion §10.2 rule 8). */
export const PLUGIN_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}\.lua$/;

const READ_CHUNK = 1024 * 1024;

export interface BuiltBackup {
  path: string;
  size: number;
  /** clip-service-backup-YYYYMMDD-HHMMSS.zip (UTC) */
  filename: string;
}

/** Text compresses well; images, video, archives and other binaries are stored as they are. */
function worthCompressing(type: string): boolean {
  return isTextType(type) || type.endsWith('+xml') || type.endsWith('/xml') || type === 'application/javascript';
}

async function writeDump(snapshot: Snapshot, path: string, createdAt: string): Promise<void> {
  const out = createWriteStream(path, { highWaterMark: READ_CHUNK });
  const closed = once(out, 'close');
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`-- Stacks clip service backup, format ${FORMAT_VERSION}, created ${createdAt}\n-- One INSERT statement per row. API keys and secret settings are not included.\n`);
  for (const table of BACKUP_TABLES) {
    const columns = snapshot.columns(table);
    const keyAt = columns.indexOf('key');
    await write(`\n-- ${table}\n`);
    let batch = '';
    for (const row of snapshot.rows(table, columns)) {
      if (table === 'settings' && isSensitiveSetting(String(row[keyAt]))) continue;
      batch += insertStatement(table, columns, row);
      if (batch.length >= READ_CHUNK) {
        await write(batch);
        batch = '';
      }
    }
    if (batch) await write(batch);
  }
  out.end();
  await closed;
}

function stampForName(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

export async function buildBackup(ctx: ClipContext): Promise<BuiltBackup> {
  const now = ctx.clock.now();
  const createdAt = `${now.toISOString().slice(0, 19)}Z`;
  const id = randomBytes(8).toString('hex');
  const sqlPath = join(ctx.blobs.tmpDir, `backup-${id}.sql`);
  const zipPath = join(ctx.blobs.tmpDir, `backup-${id}.zip`);
  const release = ctx.blobs.holdCollection();
  let snapshot: Snapshot | null = null;
  let zip: ZipFile | null = null;
  try {
    snapshot = Snapshot.open(join(ctx.config.dataDir, 'clips.db'));
    await writeDump(snapshot, sqlPath, createdAt);
    const manifest = {
      format_version: FORMAT_VERSION,
      app_version: APP_VERSION,
      created_at: createdAt,
      platform: process.platform,
      summary: snapshot.summary(),
      excluded: snapshot.sensitiveSettings(),
      blob_store: 'sha256',
    };

    zip = new ZipFile();
    const written = pipeline(zip.outputStream, createWriteStream(zipPath, { highWaterMark: READ_CHUNK }));
    written.catch(() => undefined);
    zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime: now });
    zip.addFile(sqlPath, 'database.sql', { mtime: now, compress: true });
    for (const { hash, type } of snapshot.contents()) {
      const path = ctx.blobs.pathOf(hash);
      // A backup without some clip's bytes could never be restored: fail now, not then.
      if (!existsSync(path)) throw new Error(`the bytes of content ${hash} are missing from the blob store`);
      zip.addReadStreamLazy(`blobs/${hash}`, { mtime: now, compress: worthCompressing(type) }, (cb) => cb(null, createReadStream(path, { highWaterMark: READ_CHUNK })));
    }
    const pluginDir = join(ctx.config.dataDir, 'plugins');
    for (const file of snapshot.pluginFiles()) {
      if (PLUGIN_FILE.test(file) && existsSync(join(pluginDir, file))) zip.addFile(join(pluginDir, file), `plugins/${file}`, { mtime: now, compress: true });
    }
    zip.end();
    await written;
    return { path: zipPath, size: (await stat(zipPath)).size, filename: `clip-service-backup-${stampForName(now)}.zip` };
  } catch (e) {
    (zip?.outputStream as Readable | undefined)?.destroy();
    await rm(zipPath, { force: true });
    throw e;
  } finally {
    snapshot?.close();
    await rm(sqlPath, { force: true });
    await release();
  }
}

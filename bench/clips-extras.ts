// Clip service watch folders and backup/restore (issue 15). The service runs as its own
// process, as `stacks clips` runs it. Prints JSON figures:
//   - watch import rate: files dropped (renamed) into a watched folder, and the scan of a folder
//     already holding --scan-files files (process_existing), in files/s with the peak RSS;
//   - backup and restore of a store of --store-mb MB (--gb for 1 GB) of incompressible clips,
//     in MB/s against a plain fsynced copy of the same blob files, with the peak RSS of each.
// Run: npx tsx bench/clips-extras.ts [--drop-files 2000] [--scan-files 10000] [--store-mb 256 | --gb]
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyFile, open, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { request } from 'node:http';
import { keyCreate, startProcess, type ServiceProcess } from '../test/clips/process.js';
import { argNumber as arg } from './args.js';

const DROP_FILES = arg('drop-files', 2000);
const SCAN_FILES = arg('scan-files', 10_000);
const STORE_MB = process.argv.includes('--gb') ? 1024 : arg('store-mb', 256);
const CLIP_MB = 4;

const mb = (bytes: number) => +(bytes / 1e6).toFixed(1);
const round = (n: number) => +n.toFixed(1);

/** Peak resident set size since the last reset, in MB (Linux). */
function peakRss(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? round((Number(m[1]) * 1024) / 1e6) : NaN;
}

/** Starts a new peak measurement (writing 5 to clear_refs resets VmHWM). */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not permitted: the peak then counts from the start */
  }
}

async function waitUntil(probe: () => Promise<boolean> | boolean, timeoutMs = 600_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

class Client {
  constructor(readonly svc: ServiceProcess, readonly key: string) {}
  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await fetch(`${this.svc.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${this.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: HTTP ${r.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  async total(): Promise<number> {
    return (await this.json<{ total: number }>('GET', '/clips?limit=1')).total;
  }
}

async function service(root: string, name: string): Promise<Client> {
  const dataDir = join(root, name);
  const key = keyCreate(dataDir, ['--name', 'bench', '--role', 'admin']).stdout.trim();
  return new Client(await startProcess(['--port', '0', '--data-dir', dataDir], { CLIP_CLEANUP_INTERVAL_MS: '3600000' }), key);
}

function writeFiles(dir: string, count: number, bytes: number): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `file-${String(i).padStart(6, '0')}.bin`), randomBytes(bytes));
}

async function watchFigures(root: string) {
  const c = await service(root, 'watch');
  const pid = c.svc.child.pid!;
  try {
    // Drop: files appear by rename (complete at once), as a download manager or a sync tool does.
    const staging = join(root, 'drop-staging');
    writeFiles(staging, DROP_FILES, 4096);
    const dropDir = join(root, 'drop');
    mkdirSync(dropDir);
    await c.json('POST', '/watch', { path: dropDir });
    resetPeak(pid);
    const dropStart = performance.now();
    for (const name of readdirSync(staging)) renameSync(join(staging, name), join(dropDir, name));
    await waitUntil(async () => (await c.total()) >= DROP_FILES);
    const dropSeconds = (performance.now() - dropStart) / 1000;
    const dropPeak = peakRss(pid);

    // Scan: a folder that already holds many files, imported with process_existing.
    const scanDir = join(root, 'scan');
    writeFiles(scanDir, SCAN_FILES, 1024);
    resetPeak(pid);
    const scanStart = performance.now();
    await c.json('POST', '/watch', { path: scanDir, process_existing: true });
    await waitUntil(async () => (await c.total()) >= DROP_FILES + SCAN_FILES);
    const scanSeconds = (performance.now() - scanStart) / 1000;
    const left = (await readdir(scanDir)).length;
    return {
      drop: { files: DROP_FILES, file_bytes: 4096, seconds: round(dropSeconds), files_per_s: round(DROP_FILES / dropSeconds), peak_rss_MB: dropPeak, note: 'includes the 500 ms debounce of the last file' },
      scan: { files: SCAN_FILES, file_bytes: 1024, seconds: round(scanSeconds), files_per_s: round(SCAN_FILES / scanSeconds), peak_rss_MB: peakRss(pid), files_left: left },
    };
  } finally {
    await c.svc.stop();
  }
}

/** Uploads `count` distinct clips of CLIP_MB random bytes, streamed. */
async function fillStore(c: Client, count: number): Promise<void> {
  const size = CLIP_MB * 1024 * 1024;
  for (let i = 0; i < count; i++) {
    const boundary = 'benchboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="clip-${i}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${c.svc.url}/api/v1/clips`, {
        method: 'POST',
        headers: { authorization: `Bearer ${c.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.write(head);
      req.write(randomBytes(size));
      req.end(tail);
    });
    if (status !== 201) throw new Error(`fill: HTTP ${status}`);
  }
}

/** Plain copy of every blob file with fsync: what any backup has to move at least. */
async function plainCopy(from: string, to: string): Promise<{ bytes: number; seconds: number }> {
  const files: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else files.push(join(d, e.name));
    }
  };
  await walk(from);
  mkdirSync(to, { recursive: true });
  let bytes = 0;
  const start = performance.now();
  for (const [i, file] of files.entries()) {
    const target = join(to, String(i));
    await copyFile(file, target);
    const h = await open(target, 'r+');
    await h.sync();
    await h.close();
    bytes += (await stat(target)).size;
  }
  return { bytes, seconds: (performance.now() - start) / 1000 };
}

async function backupFigures(root: string) {
  const source = await service(root, 'source');
  const clips = Math.max(1, Math.round(STORE_MB / CLIP_MB));
  try {
    const fillStart = performance.now();
    await fillStore(source, clips);
    const fillSeconds = (performance.now() - fillStart) / 1000;
    const storeBytes = clips * CLIP_MB * 1024 * 1024;
    const zipPath = join(root, 'backup.zip');

    const pid = source.svc.child.pid!;
    resetPeak(pid);
    const backupStart = performance.now();
    const res = await fetch(`${source.svc.url}/api/v1/backup`, { headers: { authorization: `Bearer ${source.key}` } });
    if (res.status !== 200 || !res.body) throw new Error(`backup: HTTP ${res.status}`);
    await pipeline(res.body as unknown as NodeJS.ReadableStream, createWriteStream(zipPath));
    const backupSeconds = (performance.now() - backupStart) / 1000;
    const backupPeak = peakRss(pid);
    const zipBytes = statSync(zipPath).size;

    const copy = await plainCopy(join(root, 'source', 'blobs'), join(root, 'plain-copy'));
    rmSync(join(root, 'plain-copy'), { recursive: true, force: true });

    const target = await service(root, 'target');
    try {
      const tpid = target.svc.child.pid!;
      resetPeak(tpid);
      const restoreStart = performance.now();
      const boundary = 'restoreboundary';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="backup.zip"\r\nContent-Type: application/zip\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${target.svc.url}/api/v1/backup/restore`, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.key}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + zipBytes + tail.length },
        }, (r) => {
          let body = '';
          r.on('data', (d: Buffer) => (body += d.toString()));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.write(head);
        const file = createReadStream(zipPath);
        file.pipe(req, { end: false });
        file.on('end', () => req.end(tail));
      });
      if (answer.status !== 200) throw new Error(`restore: HTTP ${answer.status} ${answer.body}`);
      const restoreSeconds = (performance.now() - restoreStart) / 1000;
      const restored = await target.total();
      return {
        store: { clips, clip_MB: CLIP_MB, MB: mb(storeBytes), fill_upload_MB_per_s: round(mb(storeBytes) / fillSeconds) },
        backup: { seconds: round(backupSeconds), MB_per_s: round(mb(storeBytes) / backupSeconds), zip_MB: mb(zipBytes), peak_rss_MB: backupPeak },
        restore: { seconds: round(restoreSeconds), MB_per_s: round(mb(storeBytes) / restoreSeconds), clips_restored: restored, peak_rss_MB: peakRss(tpid) },
        plain_copy: { MB: mb(copy.bytes), seconds: round(copy.seconds), MB_per_s: round(mb(copy.bytes) / copy.seconds) },
      };
    } finally {
      await target.svc.stop();
    }
  } finally {
    await source.svc.stop();
  }
}

const root = mkdtempSync(join(tmpdir(), 'stacks-clips-extras-bench-'));
try {
  const watch = await watchFigures(root);
  const backup = await backupFigures(root);
  console.log(JSON.stringify({ benchmark: 'clips-extras', watch, ...backup }, null, 2));
} finally {
  rmSync(root, { recursive: true, force: true });
}

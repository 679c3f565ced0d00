// Library upload throughput (issue 18): POST /v1/resource of one 1 GiB file and of 8 files of
// 32 MiB sent at once, against the plain copy of bench/plain-copy.ts (the same reference as the
// clip benchmark) measured in the same run on the same disk, with the server's peak RSS growth.
// The library runs as its own process (`stacks library`), so the RSS is the server's alone. While
// the uploads run, a small read is timed every 20 ms (`read_p50_ms`, `read_max_ms`): what another
// client of the server waits meanwhile.
// Run: npx tsx bench/uploads.ts [--backend sqlite|postgres] [--large-mib 1024] [--files 8] [--mib 32] [--rounds 2] [--cpu-prof DIR]
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freshPostgresDsn } from '../test/helpers/library.js';
import { cpuSeconds, startLibraryProcess } from './library-process.js';
import { plainCopyMBps } from './plain-copy.js';
import { argText as arg } from './args.js';

const MiB = 1024 * 1024;
const backend = arg('backend', 'sqlite');
const large = Number(arg('large-mib', '1024')) * MiB;
const files = Number(arg('files', '8'));
const small = Number(arg('mib', '32')) * MiB;
const rounds = Number(arg('rounds', '2'));
const cpuProf = arg('cpu-prof', '');

const mb = (bytes: number) => +(bytes / 1e6).toFixed(1);

/** Resident set size now and its peak since the last reset, in bytes (Linux). */
function rss(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { now: kb('VmRSS'), peak: kb('VmHWM') };
}
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not permitted: the peak then counts from the start */
  }
}

/** Streams a multipart upload of `size` bytes (a random 256 KiB block repeated: distinct per file, cheap to make). */
function upload(url: string, size: number): Promise<void> {
  const boundary = 'benchboundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="resource"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = randomBytes(256 * 1024);
  return new Promise((done, fail) => {
    const req = request(`${url}/v1/resource`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
    }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`upload: HTTP ${res.statusCode} ${body}`))));
    });
    req.on('error', fail);
    let left = size;
    req.write(head);
    const pump = () => {
      while (left > 0) {
        const n = Math.min(left, block.length);
        left -= n;
        if (!req.write(n === block.length ? block : block.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

function startLibrary(dir: string, dbArgs: string[]) {
  return startLibraryProcess(['-bind-address', '127.0.0.1:0', '-file-save-path', join(dir, 'files'), '-quiet', '-hash-worker-disabled', ...dbArgs], cpuProf);
}

/**
 * Times a small read (GET /v1/tags) every 20 ms until `done` resolves: how long another client
 * waits for the server while the uploads run (an event loop busy with the uploads makes it wait).
 */
async function probeReads(url: string, done: Promise<unknown>): Promise<{ p50: number; max: number }> {
  let going = true;
  void done.finally(() => (going = false));
  const waits: number[] = [];
  while (going) {
    const start = performance.now();
    await (await fetch(`${url}/v1/tags`, { headers: { accept: 'application/json' } })).text();
    waits.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 20));
  }
  waits.sort((a, b) => a - b);
  return { p50: +waits[waits.length >> 1].toFixed(1), max: +waits[waits.length - 1].toFixed(1) };
}

/** Runs the uploads at once; MB/s, the server's peak RSS growth over its RSS before, and a small read's wait meanwhile. */
async function measure(pid: number, url: string, sizes: number[]) {
  resetPeak(pid);
  const before = rss(pid).now;
  const cpuBefore = cpuSeconds(pid);
  const clientBefore = process.cpuUsage();
  const start = performance.now();
  const uploads = Promise.all(sizes.map((s) => upload(url, s)));
  const reads = probeReads(url, uploads);
  await uploads;
  const seconds = (performance.now() - start) / 1000;
  const read = await reads;
  const total = sizes.reduce((a, b) => a + b, 0);
  const cpu = cpuSeconds(pid) - cpuBefore;
  const client = process.cpuUsage(clientBefore);
  const perGiB = (s: number) => +((s * 1024 * MiB) / total).toFixed(2);
  return {
    MB_per_s: mb(total / seconds),
    peak_rss_growth_MiB: +((rss(pid).peak - before) / MiB).toFixed(1),
    server_cpu_s_per_GiB: perGiB(cpu),
    // The sender shares the two cores with the server: what it takes is not the server's to use.
    client_cpu_s_per_GiB: perGiB((client.user + client.system) / 1e6),
    read_p50_ms: read.p50,
    read_max_ms: read.max,
  };
}

const dir = mkdtempSync(join(tmpdir(), 'stacks-upload-bench-'));
const pg = backend === 'postgres' ? await freshPostgresDsn() : null;
const dbArgs = pg ? ['-db-type', 'POSTGRES', '-db-dsn', pg.dsn] : ['-db-dsn', join(dir, 'library.db')];
const lib = await startLibrary(dir, dbArgs);
try {
  // Warm up with as many uploads at once as the widest scenario: what the first concurrent
  // requests allocate once (code, caches, heap pages) is not growth that follows the uploads.
  await measure(lib.pid, lib.url, Array.from({ length: files }, () => MiB));
  const scenarios = [
    { scenario: `1 × ${large / MiB} MiB`, sizes: [large] },
    { scenario: `${files} × ${small / MiB} MiB at once`, sizes: Array.from({ length: files }, () => small) },
  ];
  const results = [];
  // The machine is shared: each round measures the copy right before the upload, so a ratio
  // compares two figures taken under the same load.
  for (let round = 1; round <= rounds; round++) {
    for (const s of scenarios) {
      const copy = await plainCopyMBps(dir, s.sizes[0], s.sizes.length);
      const up = await measure(lib.pid, lib.url, s.sizes);
      const load = +(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
      results.push({ round, scenario: s.scenario, upload_MB_per_s: up.MB_per_s, plain_copy_MB_per_s: copy, ratio: +(up.MB_per_s / copy).toFixed(2), server_peak_rss_growth_MiB: up.peak_rss_growth_MiB, server_cpu_s_per_GiB: up.server_cpu_s_per_GiB, client_cpu_s_per_GiB: up.client_cpu_s_per_GiB, read_p50_ms: up.read_p50_ms, read_max_ms: up.read_max_ms, load_average: load });
      console.error(JSON.stringify(results.at(-1)));
    }
  }
  console.log(JSON.stringify({ benchmark: 'uploads', backend, results }, null, 2));
} finally {
  await lib.stop();
  await pg?.drop();
  rmSync(dir, { recursive: true, force: true });
}

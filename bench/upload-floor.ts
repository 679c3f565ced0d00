// The floor of a library upload (issue 18): server CPU per GiB of receiving one multipart body
// over loopback HTTP, step by step — (a) the body discarded, (b) read through our multipart
// parser, (c) plus the SHA-1 of the file part, (d) plus the temporary file with its fsync
// (`FileStore.stage`, what `POST /v1/resource` does before its row); `write` is (d) without (c). The server is this process
// (Fastify with the multipart reader, as in the services) and its CPU is `process.cpuUsage()`
// (every thread: main, thread pool, workers); the client is a separate plain Node process, so its
// CPU is not counted. CPU per GiB is the figure to compare: MB/s moves with the machine's load.
// Run: npx tsx bench/upload-floor.ts [--mib 1024] [--runs 2] [--steps discard,multipart,sha1,write,stage] [--boundary benchboundary]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
import { readParts, registerMultipart } from '../src/core/http/multipart.js';
import { FileStore } from '../src/core/storage/file-store.js';
import { argNumber, argText } from './args.js';

const MiB = 1024 * 1024;
const size = argNumber('mib', 1024) * MiB;
const runs = argNumber('runs', 2);
const steps = argText('steps', 'discard,multipart,sha1,write,stage').split(',');
// bench/uploads.ts sends this 13-character boundary; browsers and curl send 38–40 characters, and
// the parser's delimiter search costs less the longer it is (it skips by the delimiter's length).
const boundary = argText('boundary', 'benchboundary');

// The client: a multipart body of `size` bytes (a random 256 KiB block repeated), written with
// backpressure, as bench/uploads.ts sends it.
const CLIENT = `
const { request } = require('node:http');
const { randomBytes } = require('node:crypto');
const [url, size, boundary] = [process.argv[1], Number(process.argv[2]), process.argv[3]];
const head = Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="resource"; filename="bench.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
const tail = Buffer.from('\\r\\n--' + boundary + '--\\r\\n');
const block = randomBytes(256 * 1024);
const req = request(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=' + boundary, 'content-length': head.length + size + tail.length } }, (res) => {
  res.resume();
  res.on('end', () => process.exit(res.statusCode === 200 ? 0 : 1));
});
req.on('error', (e) => { console.error(e); process.exit(1); });
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
`;

function send(url: string): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['-e', CLIENT, url, String(size), boundary], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`client exited with ${code}`))));
  });
}

const discard = () => new Writable({ highWaterMark: 64 * 1024, write: (_c, _e, cb) => cb() });

const dir = mkdtempSync(join(tmpdir(), 'stacks-upload-floor-'));
const store = new FileStore(dir);
const app = Fastify({ bodyLimit: 1 << 20 });
registerMultipart(app, { fieldSize: 1 << 20 });
let last = '';
// Removed after the step's CPU is taken: unlinking 1 GiB costs the kernel most of a second.
const toRemove: string[] = [];
app.post('/:step', async (req) => {
  const step = (req.params as { step: string }).step;
  if (step === 'discard') {
    await pipeline(req.raw, discard());
    return { ok: true };
  }
  for await (const part of readParts(req)) {
    if (part.type !== 'file') continue;
    if (step === 'multipart') await pipeline(part.stream, discard());
    else if (step === 'sha1') {
      const hash = createHash('sha1');
      await pipeline(part.stream, new Writable({ highWaterMark: 64 * 1024, write: (c: Buffer, _e, cb) => (hash.update(c), cb()) }));
      last = hash.digest('hex');
    } else if (step === 'write') {
      // The file without the hash: the part's stream into a file stream, then fsync.
      const path = join(dir, 'write.part');
      await pipeline(part.stream, createWriteStream(path, { highWaterMark: 1 << 20 }));
      const handle = await open(path, 'r+');
      await handle.sync();
      await handle.close();
      toRemove.push(path);
    } else {
      const staged = await store.stage(part.stream);
      last = staged.sha1;
      toRemove.push(staged.tempPath);
    }
  }
  return { ok: true, last };
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });

const results = [];
try {
  for (let run = 1; run <= runs; run++) {
    for (const step of steps) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      await send(`${url}/${step}`);
      const seconds = (performance.now() - start) / 1000;
      const used = process.cpuUsage(cpu);
      const gib = size / (1024 * MiB);
      const row = {
        run,
        step,
        cpu_s_per_GiB: +((used.user + used.system) / 1e6 / gib).toFixed(2),
        user_s_per_GiB: +(used.user / 1e6 / gib).toFixed(2),
        system_s_per_GiB: +(used.system / 1e6 / gib).toFixed(2),
        MB_per_s: +(size / 1e6 / seconds).toFixed(1),
        load_average: +readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
      };
      for (const path of toRemove.splice(0)) rmSync(path);
      results.push(row);
      console.error(JSON.stringify(row));
    }
  }
  console.log(JSON.stringify({ benchmark: 'upload-floor', mib: size / MiB, boundary, results }, null, 2));
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}

// The floor of a library upload (issue 18): server CPU per GiB of receiving one multipart body
// over loopback HTTP, step by step — (a) the body discarded, (b) read through our multipart
// parser, (c) plus the SHA-1 of the file part, (d) plus the temporary file with its fsync
// (`FileStore.stage`, what `POST /v1/resource` does before its row); `write` is (d) without (c). The server is this process
// (Fastify with the multipart reader, as in the services) and its CPU is `process.cpuUsage()`
// (every thread: main, thread pool, workers); the client is a separate plain Node process, so its
// CPU is not counted. CPU per GiB is the figure to compare: MB/s moves with the machine's load.
//
// Receive paths of the fifth turn (bench/README.md), the body taken off the socket into one
// reused buffer (src/core/http/body-takeover.ts) instead of Node's HTTP body stream:
// - `takeover`: the body read to nowhere (compare with `discard`);
// - `t<step>` (`tmultipart`, `tsha1`, `tstage`, …): step <step> reading the taken body, copied
//   into --batch KiB chunks, through the same multipart reader;
// - `syncwrite`: the stage's hash and file, but written with `writeSync` on the main thread;
// - `direct`, `direct-sync`, `direct-nowrite` (and `direct-deep`, `direct-nopause`,
//   `direct-64k`): no multipart stream — our own delimiter search on the reused buffer, SHA-1
//   from it, the file written from 1 MiB batches through the thread pool (`direct`: at most two
//   queued; deep: six; nopause: unbounded; 64k: 64 KiB batches), or written synchronously from
//   the reused buffer (`direct-sync`), or not written (`direct-nowrite`). One file part only.
// The client's body is the same pseudo-random block in every run, so the SHA-1s printed with the
// rows must agree between steps.
// Run: npx tsx bench/upload-floor.ts [--mib 1024] [--runs 2] [--steps discard,multipart,sha1,write,stage] [--boundary benchboundary] [--batch 1024]
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Fastify from 'fastify';
import { readParts, registerMultipart } from '../src/core/http/multipart.js';
import { FileStore } from '../src/core/storage/file-store.js';
import { takeBody, takeBodyStream } from '../src/core/http/body-takeover.js';
import { argNumber, argText } from './args.js';

const MiB = 1024 * 1024;
const size = argNumber('mib', 1024) * MiB;
const runs = argNumber('runs', 2);
const steps = argText('steps', 'discard,multipart,sha1,write,stage').split(',');
// bench/uploads.ts sends this 13-character boundary; browsers and curl send 38–40 characters, and
// the parser's delimiter search costs less the longer it is (it skips by the delimiter's length).
const boundary = argText('boundary', 'benchboundary');
const batchKiB = argNumber('batch', 1024);

// The client: a multipart body of `size` bytes (a random 256 KiB block repeated), written with
// backpressure, as bench/uploads.ts sends it.
const CLIENT = `
const { request } = require('node:http');
const { createHash } = require('node:crypto');
const [url, size, boundary] = [process.argv[1], Number(process.argv[2]), process.argv[3]];
const head = Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="resource"; filename="bench.bin"\\r\\nContent-Type: application/octet-stream\\r\\n\\r\\n');
const tail = Buffer.from('\\r\\n--' + boundary + '--\\r\\n');
// Pseudo-random and the same in every run, so the steps' SHA-1s can be compared.
const block = Buffer.alloc(256 * 1024);
for (let at = 0, h = Buffer.from(boundary); at < block.length; at += h.length) h = createHash('sha512').update(h).digest(), h.copy(block, at);
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
app.post('/:step', async (req, reply) => {
  const named = (req.params as { step: string }).step;
  const taken = named !== 'takeover' && named.startsWith('t');
  const step = taken ? named.slice(1) : named;
  if (step === 'discard') {
    await pipeline(req.raw, discard());
    return { ok: true };
  }
  if (step === 'takeover') {
    // The body off the socket into one reused buffer (body-takeover.ts), read to nowhere.
    await new Promise<void>((done, fail) => {
      void takeBody(req.raw, reply.raw, { data: () => true, end: done }).then((taken) => taken || fail(new Error('the body could not be taken over')));
      req.raw.socket.once('close', () => fail(new Error('closed')));
    });
    return { ok: true };
  }
  if (step.startsWith('direct')) {
    // Candidate (b) of the fifth turn: no multipart stream at all. The body is taken off the
    // socket into one reused buffer; the file part's bytes are found with our own delimiter
    // search, hashed from that buffer and copied into 1 MiB write batches that are reused once
    // written (at most two queued, then the socket pauses); then fsync. One file part only.
    const path = join(dir, 'direct.part');
    last = await direct(req.raw, reply.raw, path, step);
    toRemove.push(path);
    return { ok: true, last };
  }
  let body;
  if (taken) {
    // t<step>: the same step reading the body taken off the socket, in batches of --batch KiB.
    body = (await takeBodyStream(req.raw, reply.raw, batchKiB * 1024)) ?? undefined;
    if (!body) throw new Error('the body could not be taken over');
  }
  for await (const part of readParts(req, { body })) {
    if (part.type !== 'file') continue;
    if (step === 'multipart') await pipeline(part.stream, discard());
    else if (step === 'sha1') {
      const hash = createHash('sha1');
      await pipeline(part.stream, new Writable({ highWaterMark: 64 * 1024, write: (c: Buffer, _e, cb) => (hash.update(c), cb()) }));
      last = hash.digest('hex');
    } else if (step === 'syncwrite') {
      // The stage's work with the file written synchronously on the main thread, from the
      // chunk just read (no thread-pool hand-off), then fsync.
      const path = join(dir, 'syncwrite.part');
      const handle = await open(path, 'w');
      const hash = createHash('sha1');
      await pipeline(part.stream, new Writable({ highWaterMark: 64 * 1024, write: (c: Buffer, _e, cb) => (hash.update(c), writeSync(handle.fd, c), cb()) }));
      await handle.sync();
      await handle.close();
      last = hash.digest('hex');
      toRemove.push(path);
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
async function direct(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, path: string, variant: string): Promise<string> {
  const noWrite = variant === 'direct-nowrite';
  const depth = variant === 'direct-deep' ? 6 : variant === 'direct-nopause' ? Infinity : 2;
  const file = await open(path, 'w');
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const keep = delimiter.length - 1;
  const hash = createHash('sha1');
  const BATCH = variant === 'direct-64k' ? 64 * 1024 : 1 << 20;
  const free: Buffer[] = [];
  const queued: { buf: Buffer; n: number }[] = [];
  let batch: Buffer | null = null;
  let filled = 0;
  let writing = false;
  let inHead = true;
  let head = Buffer.alloc(0);
  let carry = Buffer.alloc(0);
  let done = false;
  let ended: () => void;
  let failed: (e: Error) => void;
  const finished = new Promise<void>((a, b) => ((ended = a), (failed = b)));
  let taken: Awaited<ReturnType<typeof takeBody>> = null;
  const emit = (bytes: Buffer) => {
    hash.update(bytes);
    if (noWrite) return;
    if (variant === 'direct-sync') return void writeSync(file.fd, bytes);
    for (let at = 0; at < bytes.length; ) {
      batch ??= free.pop() ?? Buffer.allocUnsafeSlow(BATCH);
      const n = bytes.copy(batch, filled, at);
      filled += n;
      at += n;
      if (filled === BATCH) queue();
    }
  };
  const queue = () => {
    if (filled > 0) queued.push({ buf: batch!, n: filled });
    batch = null;
    filled = 0;
    pump();
  };
  const pump = () => {
    if (writing) return;
    const next = queued.shift();
    if (!next) {
      if (done && !writing) ended();
      return;
    }
    writing = true;
    file.write(next.buf, 0, next.n).then(() => {
      writing = false;
      free.push(next.buf);
      taken?.resume();
      pump();
    }, failed);
  };
  // Bytes of the file part: everything up to the delimiter; the last `keep` bytes of a read wait
  // for the next one, since a delimiter can straddle two reads.
  const scan = (chunk: Buffer) => {
    if (done) return;
    if (carry.length) {
      // Only the few bytes around the seam are joined, not the whole read.
      const seam = Buffer.concat([carry, chunk.subarray(0, keep)]);
      const at = seam.indexOf(delimiter);
      if (at >= 0 && at < carry.length) {
        emit(seam.subarray(0, at));
        done = true;
        return queue();
      }
      emit(carry);
      carry = Buffer.alloc(0);
    }
    const at = chunk.indexOf(delimiter);
    if (at >= 0) {
      emit(chunk.subarray(0, at));
      done = true;
      return queue();
    }
    const safe = Math.max(0, chunk.length - keep);
    emit(chunk.subarray(0, safe));
    carry = Buffer.from(chunk.subarray(safe));
  };
  taken = await takeBody(req, res, {
    data(chunk) {
      if (inHead) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return true;
        inHead = false;
        scan(head.subarray(end + 4));
        head = Buffer.alloc(0);
      } else scan(chunk);
      return queued.length < depth;
    },
    end() {
      if (!done) failed(new Error('no closing delimiter'));
    },
  });
  if (!taken) throw new Error('the body could not be taken over');
  await finished;
  await file.sync();
  await file.close();
  return hash.digest('hex');
}

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
        ...(last ? { sha1: last.slice(0, 12) } : {}),
      };
      last = '';
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

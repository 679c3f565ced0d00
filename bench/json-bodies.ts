// Issue 12, defect 7: memory of the library under six concurrent 60 MiB JSON bodies. Starts the
// library as a child process, reads its RSS from /proc before, and its peak (VmHWM) after six
// bodies sent at once (with Content-Length, then chunked), and prints the growth as JSON.
// Run: npx tsx bench/json-bodies.ts
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';

const BODY_BYTES = 60 * 1024 * 1024;
const CONCURRENT = 6;

function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** One POST of a 60 MiB JSON document, written in 1 MiB chunks; resolves with the status. */
function send(port: number, chunked: boolean): Promise<number> {
  return new Promise((resolve) => {
    const head = Buffer.from('{"Name":"big","Description":"');
    const tail = Buffer.from('"}');
    const filler = Buffer.alloc(1024 * 1024, 'x');
    const total = BODY_BYTES;
    const headers: Record<string, string | number> = { 'content-type': 'application/json', accept: 'application/json' };
    if (!chunked) headers['content-length'] = total;
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/note', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    let sent = 0;
    const pump = () => {
      if (sent === 0) {
        req.write(head);
        sent += head.length;
      }
      while (sent < total - tail.length) {
        const chunk = filler.subarray(0, Math.min(filler.length, total - tail.length - sent));
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

async function main(): Promise<void> {
  const child = spawn('node', ['bin/stacks.mjs', 'library', '-ephemeral', '-quiet', '-bind-address', '127.0.0.1:18931'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve()));
  await new Promise((r) => setTimeout(r, 2000));
  const before = memory(child.pid!);
  const results: Record<string, unknown> = { rssBeforeMiB: +(before.rss / 2 ** 20).toFixed(1) };
  for (const chunked of [false, true]) {
    const statuses = await Promise.all(Array.from({ length: CONCURRENT }, () => send(18931, chunked)));
    const after = memory(child.pid!);
    results[chunked ? 'chunked' : 'contentLength'] = {
      statuses,
      peakGrowthMiB: +((after.peak - before.rss) / 2 ** 20).toFixed(1),
      rssAfterMiB: +(after.rss / 2 ** 20).toFixed(1),
    };
  }
  console.log(JSON.stringify({ bodies: CONCURRENT, bodyMiB: BODY_BYTES / 2 ** 20, ...results }, null, 2));
  child.kill('SIGTERM');
}

void main();

// What receiving 1 GiB over loopback TCP costs a Node process before any HTTP (issue 18, the
// floor of an upload; see bench/upload-floor.ts for the HTTP and multipart steps): `default`
// reads as every Node socket does, a fresh 64 KiB Buffer per read that becomes garbage;
// `reused` reads into one buffer through `net.connect`'s `onread` (public API, client sockets
// only). The sender is a separate process; this process's CPU is `process.cpuUsage()`.
// Run: npx tsx bench/socket-floor.ts [--mib 1024] [--runs 2]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { argNumber } from './args.js';

const MiB = 1024 * 1024;
const size = argNumber('mib', 1024) * MiB;
const runs = argNumber('runs', 2);

// The sender: a TCP server that writes `size` bytes (a random 256 KiB block repeated) to its
// first connection, then exits; it prints its port first.
const SENDER = `
const net = require('node:net');
const block = require('node:crypto').randomBytes(256 * 1024);
const server = net.createServer((s) => {
  let left = Number(process.argv[1]);
  const pump = () => {
    while (left > 0) {
      const n = Math.min(left, block.length);
      left -= n;
      if (!s.write(n === block.length ? block : block.subarray(0, n))) return void s.once('drain', pump);
    }
    s.end(() => process.exit(0));
  };
  pump();
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function receive(mode: 'default' | 'reused') {
  const sender = spawn(process.execPath, ['-e', SENDER, String(size)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(sender.stdout, 'data')) as [Buffer];
  const port = Number(line.toString().trim());
  let got = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const socket =
    mode === 'reused'
      ? connect({ port, host: '127.0.0.1', onread: { buffer: Buffer.allocUnsafe(256 * 1024), callback: (n: number) => ((got += n), true) } })
      : connect({ port, host: '127.0.0.1' }).on('data', (d: Buffer) => void (got += d.length));
  await once(socket, 'end');
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  socket.destroy();
  if (got !== size) throw new Error(`received ${got} bytes of ${size}`);
  const gib = size / (1024 * MiB);
  return { mode, cpu_s_per_GiB: +((used.user + used.system) / 1e6 / gib).toFixed(2), user_s_per_GiB: +(used.user / 1e6 / gib).toFixed(2), system_s_per_GiB: +(used.system / 1e6 / gib).toFixed(2), MB_per_s: +(size / 1e6 / seconds).toFixed(1) };
}

const results = [];
for (let run = 1; run <= runs; run++) {
  for (const mode of ['default', 'reused'] as const) {
    const row = { run, ...(await receive(mode)) };
    results.push(row);
    console.error(JSON.stringify(row));
  }
}
console.log(JSON.stringify({ benchmark: 'socket-floor', mib: size / MiB, results }, null, 2));

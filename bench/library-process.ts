// Starts `stacks library` as a child process, the way an operator runs it, so a benchmark's client
// (its HTTP load, its memory and CPU readings) does not share the server's process or event loop.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BIN } from '../test/clips/process.js';

export interface LibraryProcess {
  pid: number;
  url: string;
  /** Sends SIGTERM and resolves once the process has exited. */
  stop: () => Promise<void>;
}

/** Starts the library with `args` (its command-line flags) and resolves with its URL once it listens; `cpuProfDir` writes its V8 CPU profile there on exit. */
export async function startLibraryProcess(args: string[], cpuProfDir = ''): Promise<LibraryProcess> {
  const node = cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', resolve(cpuProfDir)] : [];
  const child = spawn('node', [...node, BIN, 'library', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const url = await new Promise<string>((ok, fail) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) ok(m[1]);
    });
    void exited.then(() => fail(new Error(`library exited: ${out}`)));
  });
  return { pid: child.pid!, url, stop: () => (child.kill('SIGTERM'), exited) };
}

/** CPU seconds (user + system) the process has used so far: a figure the other sessions' load does not inflate much. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz)
}

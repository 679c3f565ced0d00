// An X server of its own for the clipboard tests: Xvfb on a free display, stopped afterwards.
// CI installs Xvfb and xclip (.ci/run); without them the X11 tests fail under CI=true and are
// skipped, with a message, on a developer machine.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

const have = (program: string) => spawnSync('sh', ['-c', `command -v ${program}`]).status === 0;

export const x11Available = (have('Xvfb') && have('xclip')) || process.env.CI === 'true';

if (!x11Available) console.warn('X11 clipboard tests skipped: Xvfb or xclip not found (apt-get install xvfb xclip)');

export interface Xvfb {
  display: string;
  stop(): Promise<void>;
}

export async function startXvfb(): Promise<Xvfb> {
  let number = 90 + Math.floor(Math.random() * 400);
  while (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) number++;
  const child: ChildProcess = spawn('Xvfb', [`:${number}`, '-nolisten', 'tcp', '-screen', '0', '320x240x24'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 100 && !existsSync(`/tmp/.X11-unix/X${number}`); i++) {
    if (child.exitCode !== null) throw new Error(`Xvfb :${number} exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!existsSync(`/tmp/.X11-unix/X${number}`)) throw new Error(`Xvfb :${number} did not start`);
  return {
    display: `:${number}`,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Reads the clipboard as `target` (xclip -o), as a desktop application would paste it. */
export function paste(display: string, target?: string): Buffer {
  const args = ['-selection', 'clipboard', '-o', ...(target ? ['-t', target] : [])];
  const r = spawnSync('xclip', args, { env: { ...process.env, DISPLAY: display }, timeout: 5000 });
  if (r.status !== 0) throw new Error(`xclip -o failed: ${r.stderr.toString()}`);
  return r.stdout;
}

/**
 * The clipboard as `target` once the new owner serves it. xclip forks into the background to
 * hold the selection, and its claim can reach the X server a moment after the copy request has
 * answered (seen under CI load, where a paste still reached the previous owner). Polls until a
 * read succeeds and `accept` holds, for at most 10 s, then returns the last read so the caller's
 * assertion reports what was really on the clipboard.
 */
export async function pasteEventually(display: string, target: string, accept: (out: Buffer) => boolean): Promise<Buffer> {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      const out = paste(display, target);
      if (accept(out) || Date.now() > end) return out;
    } catch (err) {
      if (Date.now() > end) throw err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

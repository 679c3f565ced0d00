// The system clipboard on Linux (companion §11.3): wl-copy under Wayland, xclip or (text only)
// xsel under X11, chosen per request from the environment; none without a display. The data
// goes to the program's stdin; the program forks a helper that keeps owning the selection, so
// only the foreground process is awaited, for at most 5 seconds.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Readable } from 'node:stream';

export type ClipboardKind = 'text' | 'image' | 'files';

export const CLIPBOARD_TIMEOUT_MS = 5_000;

export interface Backend {
  name: 'wl-copy' | 'xclip' | 'xsel';
  supports(kind: ClipboardKind): boolean;
  args(kind: ClipboardKind): string[];
}

const MIME: Record<ClipboardKind, string> = { text: 'text/plain;charset=utf-8', image: 'image/png', files: 'text/uri-list' };

const BACKENDS: Record<Backend['name'], Backend> = {
  'wl-copy': { name: 'wl-copy', supports: () => true, args: (kind) => ['--type', MIME[kind]] },
  xclip: { name: 'xclip', supports: () => true, args: (kind) => ['-selection', 'clipboard', '-t', kind === 'text' ? 'UTF8_STRING' : MIME[kind], '-i'] },
  xsel: { name: 'xsel', supports: (kind) => kind === 'text', args: () => ['--clipboard', '--input'] },
};

function onPath(program: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      /* not here */
    }
  }
  return false;
}

export function detectBackend(env: NodeJS.ProcessEnv): Backend | null {
  if (env.WAYLAND_DISPLAY && onPath('wl-copy', env.PATH)) return BACKENDS['wl-copy'];
  if (env.DISPLAY && onPath('xclip', env.PATH)) return BACKENDS.xclip;
  if (env.DISPLAY && onPath('xsel', env.PATH)) return BACKENDS.xsel;
  return null;
}

export class ClipboardFailed extends Error {}

/** Runs the backend with `data` on stdin; resolves when its foreground process exited 0. */
export function runBackend(backend: Backend, kind: ClipboardKind, data: Buffer | Readable, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(backend.name, backend.args(kind), { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The forked selection owner may hold our pipe open: stop reading it.
      child.stderr?.destroy();
      if (!Buffer.isBuffer(data)) data.destroy();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new ClipboardFailed(`${backend.name} did not finish within ${CLIPBOARD_TIMEOUT_MS / 1000} s`));
    }, CLIPBOARD_TIMEOUT_MS);
    child.stderr?.on('data', (d: Buffer) => {
      if (stderr.length < 1000) stderr += d.toString();
    });
    child.on('error', (e) => finish(new ClipboardFailed(`${backend.name}: ${e.message}`)));
    child.on('exit', (code, signal) => {
      if (code === 0) finish(null);
      else finish(new ClipboardFailed(stderr.trim().slice(0, 300) || `${backend.name} exited with ${code ?? signal}`));
    });
    child.stdin.on('error', () => undefined); // a program that exits early closes its stdin
    if (Buffer.isBuffer(data)) child.stdin.end(data);
    else {
      data.on('error', (e) => {
        child.kill('SIGKILL');
        finish(new ClipboardFailed(e.message));
      });
      data.pipe(child.stdin);
    }
  });
}

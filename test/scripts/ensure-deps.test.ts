// scripts/ensure-deps.mjs (the prestart/pretest install step), run for real against temporary
// project folders with a stand-in `npm` first on PATH that logs its calls and fakes an install.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const script = resolve('scripts/ensure-deps.mjs');
const root = mkdtempSync(join(tmpdir(), 'stacks-ensure-deps-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bin = join(root, 'bin');
mkdirSync(bin);
writeFileSync(
  join(bin, 'npm'),
  '#!/bin/sh\necho "$*" >> "$NPM_LOG"\n[ -n "$NPM_FAIL" ] && exit 1\nmkdir -p node_modules && echo installed > node_modules/installed\n',
);
chmodSync(join(bin, 'npm'), 0o755);

let seq = 0;
/** A project folder holding a copy of the script and a package-lock.json. */
function project(lock = '{"lockfileVersion":3}\n'): string {
  const dir = join(root, `p${++seq}`);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  copyFileSync(script, join(dir, 'scripts/ensure-deps.mjs'));
  writeFileSync(join(dir, 'package-lock.json'), lock);
  return dir;
}

/** Runs the script in dir; returns its output and the npm commands it ran. */
function ensure(dir: string, args: string[] = [], env: Record<string, string> = {}): { status: number | null; out: string; npm: string[] } {
  const log = join(dir, 'npm.log');
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['scripts/ensure-deps.mjs', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NPM_LOG: log, ...env },
  });
  const npm = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { status: r.status, out: r.stdout + r.stderr, npm };
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const storedHash = (dir: string) => readFileSync(join(dir, 'node_modules/.stacks-lock-hash'), 'utf8').trim();

describe('scripts/ensure-deps.mjs', () => {
  it('installs on a fresh clone, records the lock, and then leaves the install alone', () => {
    const dir = project();
    const first = ensure(dir);
    expect(first).toMatchObject({ status: 0, npm: ['ci --no-audit --no-fund'] });
    expect(first.out).toContain('Installing dependencies (npm ci)');
    expect(storedHash(dir)).toBe(sha256(join(dir, 'package-lock.json')));
    expect(ensure(dir)).toMatchObject({ status: 0, npm: [], out: '' });
  });

  it('ignores a lock file that is only newer, and reinstalls when its content changes', () => {
    const dir = project();
    ensure(dir);
    // A checkout or merge rewrites the file with the same content: newer, not different.
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(join(dir, 'package-lock.json'), later, later);
    expect(ensure(dir)).toMatchObject({ status: 0, npm: [] });
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"packages":{}}\n');
    expect(ensure(dir).npm).toEqual(['ci --no-audit --no-fund']);
    expect(storedHash(dir)).toBe(sha256(join(dir, 'package-lock.json')));
  });

  it('redoes an install that left no record (interrupted, or made before the record existed)', () => {
    const dir = project();
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules/.package-lock.json'), '{}');
    expect(ensure(dir).npm).toEqual(['ci --no-audit --no-fund']);
  });

  it('fails without recording when npm ci fails', () => {
    const dir = project();
    const r = ensure(dir, [], { NPM_FAIL: '1' });
    expect(r.status).not.toBe(0);
    expect(existsSync(join(dir, 'node_modules/.stacks-lock-hash'))).toBe(false);
  });

  it('never reinstalls through a node_modules symlink, and says why', () => {
    const shared = project('{"lockfileVersion":3,"other":true}\n');
    ensure(shared);
    const dir = project();
    symlinkSync(join(shared, 'node_modules'), join(dir, 'node_modules'));
    const r = ensure(dir);
    expect(r).toMatchObject({ status: 0, npm: [] });
    expect(r.out).toContain('node_modules is a symbolic link');
    expect(storedHash(shared)).toBe(sha256(join(shared, 'package-lock.json')));
    // A dangling link (the shared install is gone) is not reinstalled through either.
    rmSync(join(shared, 'node_modules'), { recursive: true });
    expect(ensure(dir)).toMatchObject({ status: 0, npm: [] });
  });

  it('--record (the postinstall hook) stores the hash of the lock just installed', () => {
    const dir = project();
    expect(ensure(dir, ['--record'])).toMatchObject({ status: 0, npm: [] });
    expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    mkdirSync(join(dir, 'node_modules'));
    expect(ensure(dir, ['--record'])).toMatchObject({ status: 0, npm: [] });
    expect(storedHash(dir)).toBe(sha256(join(dir, 'package-lock.json')));
    expect(ensure(dir).npm).toEqual([]);
  });

  it('is wired into package.json: before start and test, and after every npm install', () => {
    const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.prestart).toBe('node scripts/ensure-deps.mjs');
    expect(scripts.pretest).toBe('node scripts/ensure-deps.mjs');
    expect(scripts.postinstall).toBe('node scripts/ensure-deps.mjs --record');
  });
});

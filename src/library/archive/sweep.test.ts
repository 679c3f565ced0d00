import { existsSync, mkdtempSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ImportStore } from '../imports/staging.js';
import { ExportStore } from '../exports/store.js';

const HOUR = 3_600_000;
const dirs: string[] = [];
const root = () => {
  const d = mkdtempSync(join(tmpdir(), 'stacks-transfer-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ExportStore.sweep', () => {
  it('removes expired archives, keeps their record a while, and clears partial files of stopped jobs', async () => {
    const store = new ExportStore(root());
    mkdirSync(store.dir, { recursive: true });
    const now = Date.now();
    const save = async (id: string, ageH: number) => {
      writeFileSync(store.archiveFile(id, false), 'tar');
      await store.save({ id, ownerId: 1, createdAt: new Date(now - ageH * HOUR).toISOString(), completedAt: new Date(now - ageH * HOUR).toISOString(), gzip: false, resultPath: '', size: 3 });
    };
    await save('aaaaaaaaaaaaaaaa', 1);
    await save('bbbbbbbbbbbbbbbb', 30);
    await save('cccccccccccccccc', 24 * 30);
    writeFileSync(join(store.dir, 'dddddddddddddddd.tar.part'), 'x');
    writeFileSync(join(store.dir, 'eeeeeeeeeeeeeeee.tar.part'), 'x');
    writeFileSync(join(store.dir, 'ffffffffffffffff.tar'), 'orphan');
    const removed = await store.sweep(24 * HOUR, (id) => id === 'eeeeeeeeeeeeeeee', now);
    expect(removed).toBe(2);
    expect(existsSync(store.archiveFile('aaaaaaaaaaaaaaaa', false))).toBe(true);
    expect(existsSync(store.archiveFile('bbbbbbbbbbbbbbbb', false))).toBe(false);
    expect(await store.read('bbbbbbbbbbbbbbbb')).not.toBeNull();
    expect(await store.read('cccccccccccccccc')).toBeNull();
    expect(existsSync(join(store.dir, 'dddddddddddddddd.tar.part'))).toBe(false);
    expect(existsSync(join(store.dir, 'eeeeeeeeeeeeeeee.tar.part'))).toBe(true);
    expect(existsSync(join(store.dir, 'ffffffffffffffff.tar'))).toBe(false);
    expect(await store.read('../../etc/passwd')).toBeNull();
  });
});

describe('ImportStore.sweep', () => {
  it('removes staging older than the retention unless a job still uses it', async () => {
    const store = new ImportStore(root());
    const now = Date.now();
    for (const [id, ageH] of [
      ['1111111111111111', 1],
      ['2222222222222222', 48],
      ['3333333333333333', 48],
    ] as const) {
      mkdirSync(store.dir(id), { recursive: true });
      await store.writeMeta(store.dir(id), { id, ownerId: 1, createdAt: new Date(now - ageH * HOUR).toISOString(), status: 'ready', archiveName: 'a.tar', size: 1 });
    }
    const upload = await store.uploadDir();
    const old = new Date(now - 48 * HOUR);
    utimesSync(upload, old, old);
    mkdirSync(join(store.root, 'not-ours'));
    const removed = await store.sweep(24 * HOUR, (name) => name === '3333333333333333', now);
    expect(removed).toBe(2);
    expect(existsSync(store.dir('1111111111111111'))).toBe(true);
    expect(existsSync(store.dir('2222222222222222'))).toBe(false);
    expect(existsSync(store.dir('3333333333333333'))).toBe(true);
    expect(existsSync(upload)).toBe(false);
    expect(existsSync(join(store.root, 'not-ours'))).toBe(true);
  });
});

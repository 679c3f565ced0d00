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

describe('ImportStore.recoverInterrupted', () => {
  it('settles what a stopped process left: uploads, parses and applies under way, kept bytes', async () => {
    const store = new ImportStore(root());
    const createdAt = new Date().toISOString();
    const stage = async (id: string, status: 'parsing' | 'ready' | 'applying' | 'applied', extracted: boolean) => {
      mkdirSync(join(store.dir(id), 'blobs'), { recursive: true });
      if (extracted) writeFileSync(join(store.dir(id), 'blobs', 'x'), 'x');
      writeFileSync(join(store.dir(id), 'plan.json.ab12cd34.part'), '{');
      await store.writeMeta(store.dir(id), { id: status === 'parsing' ? '' : id, ownerId: 1, createdAt, status, archiveName: 'a.tar', size: 1 });
    };
    await stage('1111111111111111', 'parsing', true);
    await stage('2222222222222222', 'ready', true);
    await stage('3333333333333333', 'applying', true);
    await stage('4444444444444444', 'applied', true);
    const upload = await store.uploadDir();
    mkdirSync(store.dir('5555555555555555'));
    expect(await store.recoverInterrupted()).toBe(4);
    expect(existsSync(upload)).toBe(false);
    expect(existsSync(store.dir('5555555555555555'))).toBe(false);
    expect(await store.readMeta('1111111111111111')).toMatchObject({ id: '1111111111111111', status: 'failed', error: expect.stringMatching(/stopped while .* parsed/) });
    expect(existsSync(join(store.dir('1111111111111111'), 'blobs'))).toBe(false);
    expect(await store.readMeta('2222222222222222')).toMatchObject({ status: 'ready' });
    expect(existsSync(join(store.dir('2222222222222222'), 'blobs', 'x'))).toBe(true);
    expect(await store.readMeta('3333333333333333')).toMatchObject({ status: 'ready', error: expect.stringMatching(/applying again/) });
    expect(existsSync(join(store.dir('3333333333333333'), 'blobs', 'x'))).toBe(true);
    expect(await store.readMeta('4444444444444444')).toMatchObject({ status: 'applied' });
    expect(existsSync(join(store.dir('4444444444444444'), 'blobs'))).toBe(false);
    for (const id of ['2222222222222222', '3333333333333333', '4444444444444444']) expect(existsSync(join(store.dir(id), 'plan.json.ab12cd34.part'))).toBe(false);
  });
});

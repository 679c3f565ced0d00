// Helpers for the export/import tests: run an export to its archive bytes, read an archive's
// entries, upload and apply an import, wait for jobs, and build raw tar files by hand (so
// tests can craft entries a well-behaved writer never produces: "..", absolute paths, links).
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import { expect } from 'vitest';
import type { TestLibrary } from './library.js';

export type Job = { id: string; status: string; source: string; error?: string; phase?: string; resultPath?: string; warnings?: string[]; progress: number; totalSize: number };

export async function waitJob(lib: TestLibrary, id: string, timeoutMs = 20_000): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await lib.json<Job>('GET', `/v1/jobs/get?id=${id}`);
    if (r.status === 200 && ['completed', 'failed', 'cancelled'].includes(r.body.status)) return r.body;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${r.body.status}`);
    await new Promise((res) => setTimeout(res, 40));
  }
}

/** Submits an export, waits for it, and downloads the archive. */
export async function exportArchive(lib: TestLibrary, body: Record<string, unknown>): Promise<{ job: Job; bytes: Buffer; res: Response }> {
  const sub = await lib.json<{ jobId: string }>('POST', '/v1/groups/export', body);
  expect(sub.status, JSON.stringify(sub.body)).toBe(202);
  const job = await waitJob(lib, sub.body.jobId);
  expect(job.status, job.error).toBe('completed');
  const res = await lib.fetch(`/v1/exports/${job.id}/download`);
  expect(res.status).toBe(200);
  return { job, bytes: Buffer.from(await res.arrayBuffer()), res };
}

/** Every regular entry of an archive (gzip detected), in order. */
export async function readTar(bytes: Buffer): Promise<{ names: string[]; files: Map<string, Buffer> }> {
  const data = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  const names: string[] = [];
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    const parser = new Parser({
      onReadEntry: (e: ReadEntry) => {
        const chunks: Buffer[] = [];
        e.on('data', (c: Buffer) => chunks.push(c));
        e.on('end', () => {
          names.push(e.path);
          files.set(e.path, Buffer.concat(chunks));
        });
      },
    });
    parser.on('end', () => resolve());
    parser.on('error', reject);
    Readable.from([data]).pipe(parser);
  });
  return { names, files };
}

export function jsonOf<T = Record<string, unknown>>(files: Map<string, Buffer>, name: string): T {
  const b = files.get(name);
  if (!b) throw new Error(`no ${name} in archive`);
  return JSON.parse(b.toString('utf8')) as T;
}

/** POSTs an archive to the parse endpoint. */
export async function uploadArchive(lib: TestLibrary, bytes: Buffer, field = 'file', name = 'archive.tar') {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)], { type: 'application/x-tar' }), name);
  const res = await fetch(lib.url + '/v1/groups/import/parse', { method: 'POST', body: form, headers: { accept: 'application/json' } });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as { jobId: string; error?: string } };
}

export type Mapping = { decision_key: string; source_key: string; suggestion: string; destination_id: number | null; destination_name: string | null; ambiguous: boolean; alternatives: { id: number; name: string }[]; has_payload: boolean; guid_match_id: number | null; guid_conflict: boolean };
export type PlanItem = { export_id: string; name: string; shell: boolean; children: PlanItem[]; guid_match: boolean; guid_match_name: string | null; resource_count: number; note_count: number; descendant_resource_count: number; descendant_note_count: number };
export type Plan = {
  job_id: string;
  counts: Record<string, number>;
  items: PlanItem[];
  mappings: Record<string, Mapping[]>;
  series_info: { export_id: string; slug: string; action: string; dest_id: number | null }[];
  dangling_refs: { id: string; kind: string; from_export_id: string; stub_name: string; stub_source_id: number }[];
  conflicts: { resource_hash_matches: number; guid_matches: number };
  manifest_only_missing_hashes: number;
  warnings: string[];
};

/** Uploads an archive, waits for the parse job and returns the plan. */
export async function parseArchive(lib: TestLibrary, bytes: Buffer): Promise<{ id: string; plan: Plan }> {
  const up = await uploadArchive(lib, bytes);
  expect(up.status, JSON.stringify(up.body)).toBe(202);
  const job = await waitJob(lib, up.body.jobId);
  expect(job.status, job.error).toBe('completed');
  const plan = await lib.json<Plan>('GET', `/v1/imports/${up.body.jobId}/plan`);
  expect(plan.status).toBe(200);
  return { id: up.body.jobId, plan: plan.body };
}

export type ImportResult = Record<string, number | boolean | string[] | number[]> & { warnings: string[]; created_group_ids: number[]; created_resource_ids: number[]; created_note_ids: number[] };

/** Applies a parsed import, waits, and returns the result. */
export async function applyImport(lib: TestLibrary, id: string, decisions: Record<string, unknown> = {}): Promise<ImportResult> {
  const r = await lib.json<{ jobId: string }>('POST', `/v1/imports/${id}/apply`, decisions);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const job = await waitJob(lib, r.body.jobId);
  expect(job.status, job.error).toBe('completed');
  const result = await lib.json<ImportResult>('GET', `/v1/imports/${id}/result`);
  expect(result.status).toBe(200);
  return result.body;
}

export interface RawEntry {
  name: string;
  data?: Buffer | string;
  /** tar type flag: '0' file, '2' symlink, '5' directory */
  type?: string;
  linkname?: string;
}

function field(buf: Buffer, offset: number, length: number, value: string): void {
  buf.write(value, offset, Math.min(length, Buffer.byteLength(value)), 'utf8');
}

/** A ustar archive written byte by byte, names taken literally. */
export function rawTar(entries: RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
    const h = Buffer.alloc(512);
    field(h, 0, 100, e.name);
    field(h, 100, 8, '0000644\0');
    field(h, 108, 8, '0000000\0');
    field(h, 116, 8, '0000000\0');
    field(h, 124, 12, data.length.toString(8).padStart(11, '0') + '\0');
    field(h, 136, 12, Math.floor(Date.now() / 1000).toString(8).padStart(11, '0') + '\0');
    h.fill(0x20, 148, 156);
    field(h, 156, 1, e.type ?? '0');
    field(h, 157, 100, e.linkname ?? '');
    field(h, 257, 6, 'ustar\0');
    field(h, 263, 2, '00');
    let sum = 0;
    for (const b of h) sum += b;
    field(h, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const MANIFEST = JSON.stringify({ schema_version: 1, created_at: new Date().toISOString(), created_by: 'test', roots: [], counts: {}, entries: {}, schema_defs: {}, dangling_references: [], warnings: [] });

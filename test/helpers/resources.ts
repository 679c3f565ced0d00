// Fixtures for the resource tests: real image bytes made with sharp, a tiny PDF written as
// text, a short video made with ffmpeg when it is installed, and multipart upload helpers.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { TestLibrary } from './library.js';

/** A PNG with a diagonal gradient (so it is not flat) tinted by `seed`. */
export async function png(width = 64, height = 48, seed = 0): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      raw[i] = (x * 255) / width;
      raw[i + 1] = (y * 255) / height;
      raw[i + 2] = (seed * 37 + ((x ^ y) & 0x3f)) & 0xff;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

export async function jpeg(width = 80, height = 60, seed = 0): Promise<Buffer> {
  return sharp(await png(width, height, seed)).jpeg({ quality: 90 }).toBuffer();
}

export async function solid(width: number, height: number, color: string): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();
}

/** A minimal valid one-page PDF. */
export function pdf(text = 'hello'): Buffer {
  return Buffer.from(`%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj
% ${text}
trailer << /Root 1 0 R >>
%%EOF
`);
}

export function hasFfmpeg(): boolean {
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A 2-second 160×120 MP4 test pattern (ffmpeg must be installed). */
export function video(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'stacks-video-'));
  try {
    const out = join(dir, 'v.mp4');
    execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=160x120:rate=10', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', out]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FilePart {
  name: string;
  data: Buffer;
  type?: string;
}

/** POSTs a multipart form: files under `field`, plus text fields (arrays repeat). */
export async function postMultipart(lib: TestLibrary, path: string, field: string, files: FilePart[], fields: Record<string, string | number | (string | number)[]> = {}, headers: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, String(item));
  for (const f of files) form.append(field, new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(lib.url + path, { method: 'POST', body: form, redirect: 'manual', headers: { accept: 'application/json', ...headers } });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body: body as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function upload(lib: TestLibrary, files: FilePart[], fields: Record<string, string | number | (string | number)[]> = {}) {
  return postMultipart(lib, '/v1/resource', 'resource', files, fields);
}

// The external video tool (companion §1.6, §3.4, §3.5): frame extraction for thumbnails,
// trimming, and probing with ffprobe. Every run has a timeout and a cap on concurrent runs;
// arguments are passed as an array, never through a shell.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

export interface VideoTool {
  ffmpeg: string;
  ffprobe: string | null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * Finds ffmpeg: the configured path when given (a missing one only warns: video features then
 * answer 503), else `ffmpeg` on PATH. ffprobe is looked up next to it, then on PATH.
 */
export function locateVideoTool(configured: string, warn: (msg: string) => void): VideoTool | null {
  let ffmpeg: string | null;
  if (configured.trim() !== '') {
    ffmpeg = executable(configured) ? configured : null;
    if (!ffmpeg) warn(`-ffmpeg-path ${configured} does not exist or is not executable; video thumbnails and trim are unavailable`);
  } else {
    ffmpeg = onPath('ffmpeg');
  }
  if (!ffmpeg) return null;
  const sibling = join(dirname(ffmpeg), 'ffprobe');
  return { ffmpeg, ffprobe: executable(sibling) ? sibling : onPath('ffprobe') };
}

export class ToolError extends Error {}

/** Runs a tool and collects stdout; stdin may be a file path piped in. */
export function run(cmd: string, args: string[], timeoutMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new ToolError(`${cmd} took longer than ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => {
      if (err.length < 4000) err += c.toString();
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new ToolError(`${cmd} could not start: ${e.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new ToolError(`${cmd} failed (exit ${code}): ${err.trim().split('\n').slice(-2).join(' ')}`));
    });
  });
}

/** One JPEG frame at `seconds` (640 px wide, MJPEG quality 3), or an empty buffer past the end. */
export async function extractFrame(tool: VideoTool, input: string, seconds: number, timeoutMs: number): Promise<Buffer> {
  return run(
    tool.ffmpeg,
    ['-hide_banner', '-loglevel', 'error', '-ss', String(seconds), '-i', input, '-frames:v', '1', '-vf', 'scale=640:-2', '-f', 'image2pipe', '-vcodec', 'mjpeg', '-q:v', '3', 'pipe:1'],
    timeoutMs,
  );
}

/** The frame at 1 s, falling back to the first frame for shorter videos. */
export async function videoFrame(tool: VideoTool, input: string, timeoutMs: number): Promise<Buffer> {
  const at1 = await extractFrame(tool, input, 1, timeoutMs).catch(() => Buffer.alloc(0));
  if (at1.length > 0) return at1;
  const at0 = await extractFrame(tool, input, 0, timeoutMs);
  if (at0.length === 0) throw new ToolError('ffmpeg produced no frame');
  return at0;
}

/** Re-encodes [start, end) to MP4 (H.264 CRF 23, AAC, fragmented) at `output`. */
export async function trimVideo(tool: VideoTool, input: string, start: number, end: number, output: string, timeoutMs: number): Promise<void> {
  await run(
    tool.ffmpeg,
    [
      '-hide_banner', '-loglevel', 'error', '-y', '-i', input, '-ss', String(start), '-to', String(end),
      '-c:v', 'libx264', '-preset', 'fast', '-crf', '23', '-c:a', 'aac',
      '-movflags', 'frag_keyframe+empty_moov+default_base_moof', '-f', 'mp4', output,
    ],
    timeoutMs,
  );
}

export interface VideoInfo {
  width: number;
  height: number;
  duration: number;
}

export async function probeVideo(tool: VideoTool, input: string, timeoutMs: number): Promise<VideoInfo> {
  if (!tool.ffprobe) throw new ToolError('ffprobe is not installed');
  const out = await run(
    tool.ffprobe,
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height:format=duration', '-of', 'json', input],
    timeoutMs,
  );
  const parsed = JSON.parse(out.toString()) as { streams?: { width?: number; height?: number }[]; format?: { duration?: string } };
  const s = parsed.streams?.[0] ?? {};
  return { width: s.width ?? 0, height: s.height ?? 0, duration: Number(parsed.format?.duration ?? 0) };
}

/** Parses a trim time: seconds (decimal), MM:SS or HH:MM:SS. */
export function parseTimestamp(text: string): number | null {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const m = /^(?:(\d+):)?(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (!m) return null;
  const [h, mm, ss] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3])];
  if (mm >= 60 || ss >= 60) return null;
  return h * 3600 + mm * 60 + ss;
}

/** A counting semaphore for the "at most N simultaneous runs" limits. */
export class Limiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((r) => this.waiting.push(r));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

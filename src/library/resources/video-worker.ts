// Background video thumbnails (companion §3.4): newly uploaded videos are queued (at most 1000)
// and get their source frame made by -thumb-worker-count workers; with -thumb-backfill, videos
// without a cached frame are also picked up -thumb-batch-size at a time every poll interval.
import { SEE_ALL } from '../auth/visibility.js';
import type { VideoTool } from '../../core/media/ffmpeg.js';
import type { LibraryConfig } from '../config.js';
import type { PreviewService } from './previews.js';
import type { ResourceRepository } from './repository.js';

export interface VideoThumbDeps {
  resources: ResourceRepository;
  previews: PreviewService;
  videoTool: VideoTool | null;
}

const QUEUE_CAPACITY = 1000;

export class VideoThumbWorker {
  private readonly queue: number[] = [];
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private backfillAfter = 0;

  constructor(
    private readonly deps: VideoThumbDeps,
    private readonly media: LibraryConfig['media'],
  ) {}

  private get enabled(): boolean {
    return !this.media.thumbWorkerDisabled && this.deps.videoTool !== null;
  }

  start(): void {
    if (!this.enabled || !this.media.thumbBackfill) return;
    this.timer = setTimeout(() => this.backfill(), 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.queue.length = 0;
    while (this.active > 0) await new Promise((r) => setTimeout(r, 20));
  }

  enqueue(resourceId: number, contentType: string): void {
    if (!this.enabled || this.stopped || !contentType.startsWith('video/')) return;
    if (this.queue.length >= QUEUE_CAPACITY) return;
    this.queue.push(resourceId);
    this.pump();
  }

  private pump(): void {
    while (this.active < this.media.thumbWorkerCount && this.queue.length > 0 && !this.stopped) {
      const id = this.queue.shift()!;
      this.active++;
      void this.warm(id).finally(() => {
        this.active--;
        this.pump();
      });
    }
  }

  private async warm(id: number): Promise<void> {
    const row = await this.deps.resources.find(id, SEE_ALL);
    if (row) await this.deps.previews.warmVideo(row);
  }

  private async backfill(): Promise<void> {
    if (this.stopped) return;
    try {
      const rows = await this.deps.resources.videosAfter(this.backfillAfter, this.media.thumbBatchSize);
      this.backfillAfter = rows.length ? rows[rows.length - 1].id : 0;
      for (const r of rows) if (!(await this.deps.previews.hasSource(r.id))) this.enqueue(r.id, r.content_type);
    } catch (e) {
      console.error(`video thumbnail backfill failed: ${(e as Error).message}`);
    }
    if (this.stopped) return;
    this.timer = setTimeout(() => this.backfill(), this.media.thumbPollIntervalMs);
    this.timer.unref();
  }
}

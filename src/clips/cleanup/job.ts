// The cleanup cycle (companion §3.9): every interval (first run one interval after start),
// expired clips are deleted and revoked keys older than 7 days are purged. A failing step is
// logged and tried again on the next tick; runs never overlap.

export type CleanupStep = { name: string; run: () => Promise<unknown> };

export class CleanupJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly steps: readonly CleanupStep[],
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.runOnce(), this.intervalMs);
    this.timer.unref();
  }

  /** One pass over every step; a pass already under way is joined, not doubled. */
  runOnce(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps) {
        try {
          await step.run();
        } catch (e) {
          console.error(`cleanup step "${step.name}" failed:`, e);
        }
      }
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

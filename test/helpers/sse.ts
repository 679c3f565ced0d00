// Reads named Server-Sent Events from a response body until a predicate is satisfied.
export interface SseEvent {
  event: string;
  data: unknown;
}

export class SseReader {
  readonly events: SseEvent[] = [];
  private buffer = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  private parse(): void {
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) this.events.push({ event, data: JSON.parse(data.join('\n')) });
    }
  }

  /** Reads until `done(events)` is true or the timeout passes (then throws with what arrived). */
  async until(done: (events: SseEvent[]) => boolean, timeoutMs = 10_000): Promise<SseEvent[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.events)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`SSE condition not met; got ${JSON.stringify(this.events.map((e) => e.event))}`);
      const chunk = await Promise.race([this.reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
      if (chunk === null) continue;
      if (chunk.done) throw new Error('SSE stream ended');
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
      this.parse();
    }
    return this.events;
  }

  async close(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

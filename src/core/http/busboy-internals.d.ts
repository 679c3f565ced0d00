// Types of the parts of @fastify/busboy that the direct multipart reader (multipart-parser.ts)
// reuses so that it reads part headers exactly as busboy does. The package ships no types for
// them; the versions are pinned by package-lock.json and multipart-parser.test.ts compares the
// two readers on the same bodies, so a change inside busboy fails that test.
declare module '@fastify/busboy/deps/dicer/lib/HeaderParser.js' {
  import type { EventEmitter } from 'node:events';
  class HeaderParser extends EventEmitter {
    constructor(cfg?: { maxHeaderPairs?: number; maxHeaderSize?: number });
    /** Feeds header bytes; returns the offset just past the blank line once the block is complete. */
    push(data: Buffer): number | undefined;
    reset(): void;
    on(event: 'header', listener: (header: Record<string, string[]>) => void): this;
  }
  export = HeaderParser;
}

declare module '@fastify/busboy/lib/utils/parseParams.js' {
  /** `value; key=value; …` → [value, [key, value], …] (RFC 2231 and quoted strings decoded). */
  function parseParams(value: string): (string | [string, string | undefined])[];
  export = parseParams;
}

declare module '@fastify/busboy/lib/utils/decodeText.js' {
  function decodeText(text: string, sourceEncoding: string, destEncoding: string): string;
  export = decodeText;
}

declare module '@fastify/busboy/lib/utils/basename.js' {
  function basename(path: string): string;
  export = basename;
}

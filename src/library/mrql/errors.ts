// MRQL error kinds (mrql.md §1): each carries the bare message and, for language errors, the
// byte position and length in the query text as submitted. `toHttpError` is the one mapping of
// MRQL errors to HTTP (the server's error handler calls it); where an error is reported from
// somewhere other than a query run (a saved query, a list filter), the error is reported in
// that context's words, never re-mapped by the caller.
import { HttpError } from '../../core/http/errors.js';
import type { DomainError } from '../../core/http/server.js';

export type MrqlErrorKind = 'parse' | 'validation' | 'translate' | 'bind' | 'scope' | 'limit' | 'execution' | 'render';

/**
 * How an error reads in a context other than a query run: `prefix` goes before the message
 * (saved queries), `bare` drops the "<kind> error at position" framing (list filters). Either
 * way the reply is a 400 that carries position and length.
 */
export interface Reporting {
  prefix?: string;
  bare?: boolean;
}

export class MrqlError extends Error implements DomainError {
  constructor(
    readonly kind: MrqlErrorKind,
    readonly bare: string,
    readonly position = 0,
    readonly length = 0,
    readonly status = 400,
    /** The statement timeout fired (an execution error; cross-entity queries keep the other types' rows). */
    readonly timedOut = false,
    private readonly reporting: Reporting | null = null,
  ) {
    super(MrqlError.render(kind, bare, position));
  }

  static render(kind: MrqlErrorKind, bare: string, position: number): string {
    if (kind === 'parse' || kind === 'validation' || kind === 'translate') return `${kind} error at position ${position}: ${bare}`;
    return bare;
  }

  static timeout(ms: number): MrqlError {
    return new MrqlError('execution', `MRQL query timed out after ${ms} ms`, 0, 0, 400, true);
  }

  /** Whether the HTTP body carries position/length. */
  get positioned(): boolean {
    return this.kind === 'parse' || this.kind === 'validation' || this.kind === 'translate' || this.kind === 'scope';
  }

  /** The same error, reported in another context's words (see Reporting). */
  reportedAs(reporting: Reporting): MrqlError {
    return new MrqlError(this.kind, this.bare, this.position, this.length, this.status, this.timedOut, reporting);
  }

  toHttpError(): HttpError {
    if (this.reporting) {
      const text = this.reporting.bare ? this.bare : this.message;
      return new HttpError(400, this.reporting.prefix ? `${this.reporting.prefix}: ${text}` : text, { position: this.position, length: this.length });
    }
    return new HttpError(this.status, this.message, this.positioned ? { position: this.position, length: this.length } : {});
  }
}

export const parseError = (msg: string, pos: number, len: number) => new MrqlError('parse', msg, pos, len);
export const validationError = (msg: string, pos: number, len: number) => new MrqlError('validation', msg, pos, len);

// MRQL error kinds (mrql.md §1): each carries the bare message and, for language errors, the
// byte position and length in the query text as submitted.

export type MrqlErrorKind = 'parse' | 'validation' | 'translate' | 'bind' | 'scope' | 'limit' | 'execution';

export class MrqlError extends Error {
  constructor(
    readonly kind: MrqlErrorKind,
    readonly bare: string,
    readonly position = 0,
    readonly length = 0,
    readonly status = 400,
  ) {
    super(MrqlError.render(kind, bare, position));
  }

  static render(kind: MrqlErrorKind, bare: string, position: number): string {
    if (kind === 'parse' || kind === 'validation' || kind === 'translate') return `${kind} error at position ${position}: ${bare}`;
    return bare;
  }

  /** Whether the HTTP body carries position/length. */
  get positioned(): boolean {
    return this.kind === 'parse' || this.kind === 'validation' || this.kind === 'translate' || this.kind === 'scope';
  }
}

export const parseError = (msg: string, pos: number, len: number) => new MrqlError('parse', msg, pos, len);
export const validationError = (msg: string, pos: number, len: number) => new MrqlError('validation', msg, pos, len);

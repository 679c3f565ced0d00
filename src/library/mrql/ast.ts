// The MRQL syntax tree (mrql.md §3). Every node keeps byte positions for error reporting.

export type CompOp = '=' | '!=' | '>' | '>=' | '<' | '<=' | '~' | '!~' | '~*' | '!~*';
export type PredOp = CompOp | 'IN' | 'NOT IN' | 'IS NULL' | 'IS NOT NULL' | 'IS EMPTY' | 'IS NOT EMPTY';

export interface FieldRef {
  parts: string[];
  partPos: number[];
  text: string;
  pos: number;
  len: number;
}

export type Value =
  | { k: 'string'; v: string; pos: number; len: number }
  | { k: 'number'; v: number; raw: string; unit: '' | 'kb' | 'mb' | 'gb'; pos: number; len: number }
  | { k: 'reldate'; amount: number; unit: 'd' | 'w' | 'm' | 'y'; raw: string; pos: number; len: number }
  | { k: 'func'; name: string; pos: number; len: number }
  | { k: 'bool'; v: boolean; pos: number; len: number }
  | { k: 'param'; name: string; pos: number; len: number };

export interface Predicate {
  k: 'pred';
  field: FieldRef;
  op: PredOp;
  /** Position and length of the operator as written (BETWEEN for desugared comparisons, IS for IS tests). */
  opPos: number;
  opLen: number;
  opText: string;
  value?: Value;
  values?: Value[];
}

export type Expr =
  | { k: 'and'; left: Expr; right: Expr }
  | { k: 'or'; left: Expr; right: Expr }
  | { k: 'not'; e: Expr; pos: number }
  | Predicate
  | { k: 'text'; term: string; pos: number; len: number }
  | { k: 'similar'; id: number; within?: number; pos: number; len: number };

export type AggName = 'COUNT' | 'SUM' | 'AVG' | 'MIN' | 'MAX';

export interface Aggregate {
  name: AggName;
  /** As written (for error messages). */
  written: string;
  field?: FieldRef;
  pos: number;
  len: number;
}

export type HavingExpr =
  | { k: 'and'; left: HavingExpr; right: HavingExpr }
  | { k: 'or'; left: HavingExpr; right: HavingExpr }
  | { k: 'not'; e: HavingExpr }
  | { k: 'cmp'; agg: Aggregate; op: CompOp; value: Value };

export interface OrderItem {
  random?: boolean;
  field?: FieldRef;
  desc: boolean;
  pos: number;
  len: number;
}

export interface Query {
  where?: Expr;
  scope?: { num?: number; name?: string; raw: string; pos: number; len: number };
  groupBy?: { fields: FieldRef[]; aggs: Aggregate[]; having?: HavingExpr; pos: number };
  orderBy?: OrderItem[];
  limit?: { n: number; pos: number };
  offset?: { n: number; pos: number };
}

// Rows that processes sharing the database take turns on (plugin schedules, scheduled
// downloads) carry a claim: claim_token names the holder and claimed_at when it took the row.
// A claim older than the cutoff belongs to a holder that stopped midway, so it no longer counts.
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';

/** No live claim holds the row: never claimed, or claimed before `claimCutoff`. */
export function noLiveClaim(claimCutoff: string): Expression<SqlBool> {
  const eb = expressionBuilder();
  return eb.or([eb(sql.ref('claim_token'), 'is', null), eb(sql.ref('claimed_at'), '<', claimCutoff)]);
}

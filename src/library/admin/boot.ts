// Boot defaults of the runtime settings, from the parsed flags. A value the setting itself
// would refuse (a bad share URL, an out-of-range retention) stops start-up like any bad flag.
import { ConfigError } from '../../core/config/flags.js';
import { HttpError } from '../../core/http/errors.js';
import type { LibraryConfig } from '../config.js';
import { SETTINGS, nanos, parseSetting } from './settings.js';

export function bootSettings(config: LibraryConfig): Record<string, number | string> {
  const b = config.boot;
  const boot: Record<string, number | string> = {
    max_upload_size: config.maxUploadSize,
    max_import_size: b.maxImportSize,
    mrql_default_limit: config.mrql.defaultLimit,
    mrql_page_query_budget: config.mrql.pageQueryBudget,
    mrql_query_timeout: nanos(config.mrql.timeoutMs),
    remote_connect_timeout: nanos(config.remote.connectTimeoutMs),
    remote_idle_timeout: nanos(config.remote.idleTimeoutMs),
    remote_overall_timeout: nanos(config.remote.overallTimeoutMs),
    download_failed_retention: nanos(b.downloadFailedRetentionMs),
    download_history_retention: nanos(b.downloadHistoryRetentionMs),
    download_cockpit_limit: b.downloadCockpitLimit,
    share_public_url: b.sharePublicUrl,
    docs_site_base_url: b.docsSiteBaseUrl,
    docs_links_disabled: b.docsLinksDisabled ? 1 : 0,
    hash_similarity_threshold: config.hashing.similarityThreshold,
    hash_ahash_threshold: config.hashing.ahashThreshold,
    hash_backfill_paused: 0,
    export_retention: nanos(b.exportRetentionMs),
  };
  for (const spec of SETTINGS) {
    const value = boot[spec.key];
    try {
      // Durations are checked in nanoseconds, the unit the bounds use.
      parseSetting(spec, spec.type === 'duration' ? `${Number(value) / 1_000_000}ms` : String(value));
    } catch (e) {
      if (e instanceof HttpError) throw new ConfigError(`invalid start-up value for ${spec.key.replace(/_/g, '-')}: ${e.message}`);
      throw e;
    }
  }
  return boot;
}

// `stacks clips [flags]` and `stacks clips key create …`. Kept apart from the library's
// command so the clip service's in-memory bundle holds clip code only (src/clips/bundled.mjs).
import { ConfigError, flagHelp } from '../core/config/flags.js';
import { installGracefulShutdown } from '../core/http/server.js';
import { clipFlags, parseClipArgs } from './config.js';
import { keyCommand } from './keys/cli.js';
import { SHUTDOWN_GRACE_MS, startClips } from './main.js';

export const KEY_USAGE = 'stacks clips key create --name NAME [--role viewer|editor|admin] [--scope TAG] [--data-dir DIR]';

export async function clipsCommand(argv: string[]): Promise<void> {
  if (argv[0] === 'key') return keyCommand(argv.slice(1));
  if (argv.includes('-help') || argv.includes('--help') || argv.includes('-h')) {
    console.log(`stacks clips [flags]\n${KEY_USAGE}\n\n${flagHelp(clipFlags)}`);
    return;
  }
  const { config, positionals } = parseClipArgs(argv);
  if (positionals.length > 0) throw new ConfigError(`unexpected argument "${positionals[0]}" (see stacks clips -help)`);
  const running = await startClips(config);
  console.log(`Stacks clip service listening on ${running.url}${config.bindAll ? ' (bound to 0.0.0.0)' : ''}, data in ${running.ctx.config.dataDir}`);
  // In-flight requests get the grace period; the margin covers closing the database.
  // The hard stop leaves room for plugins' on_shutdown, which may use the whole handler limit (§8.5).
  installGracefulShutdown(() => running.close(), Math.max(SHUTDOWN_GRACE_MS, config.pluginHandlerTimeoutMs) + 2_000);
}

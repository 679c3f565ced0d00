// `stacks library [flags]`, `stacks clips [flags]` and `stacks clips key create …`.
import { ConfigError, flagHelp } from './core/config/flags.js';
import { loadDotEnv } from './core/config/dotenv.js';
import { installGracefulShutdown } from './core/http/server.js';
import { HttpError } from './core/http/errors.js';

// Each service is loaded only when its subcommand runs, so neither pays for the other's code
// (the clip service must stay small: a 100 MiB upload runs within 150 MB of memory).

const USAGE = `usage:
  stacks library [flags]    run the library service (stacks library -help lists the flags)
  stacks library openapi    print the OpenAPI description of the library API
  stacks clips [flags]      run the clip service (stacks clips -help lists the flags)
  stacks clips key create --name NAME [--role viewer|editor|admin] [--scope TAG] [--data-dir DIR]`;

async function library(argv: string[]): Promise<void> {
  const { libraryFlags, parseLibraryArgs } = await import('./library/config.js');
  const { startLibrary } = await import('./library/main.js');
  if (argv.includes('-help') || argv.includes('--help') || argv.includes('-h')) {
    console.log(`stacks library [flags]\n\n${flagHelp(libraryFlags)}`);
    return;
  }
  if (argv[0] === 'openapi') {
    // Prints the OpenAPI description built from the declared routes (Decision 8).
    const { config } = parseLibraryArgs(['-ephemeral', '-quiet', ...argv.slice(1)]);
    const built = await startLibrary(config, { listen: false, log: () => undefined });
    const doc = await built.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    console.log(JSON.stringify(doc.json(), null, 2));
    await built.close();
    return;
  }
  const { config } = parseLibraryArgs(argv);
  const running = await startLibrary(config);
  if (running.lib.readonlySql.enforcedByDatabase) console.log('saved SQL queries: read-only enforced by the database');
  console.log(`Stacks library listening on ${running.url} (database: ${config.dbKind}${config.ephemeral ? ', ephemeral' : ''})`);
  if (running.shareUrl) console.log(`note share server listening on ${running.shareUrl}`);
  installGracefulShutdown(() => running.close(), 30_000);
}

async function clips(argv: string[]): Promise<void> {
  const { clipsCommand } = await import('./clips/command.js');
  return clipsCommand(argv);
}

async function main(): Promise<void> {
  loadDotEnv();
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'library') return library(rest);
  if (command === 'clips') return clips(rest);
  console.error(USAGE);
  process.exitCode = 2;
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof HttpError) {
    console.error(`stacks: ${e.message}`);
    process.exit(2);
  }
  console.error(e);
  process.exit(1);
});

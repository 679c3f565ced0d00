// Entry of the clip service's in-memory bundle: the clips subcommand and nothing else.
import { loadDotEnv } from '../core/config/dotenv.js';
import { ConfigError } from '../core/config/flags.js';
import { HttpError } from '../core/http/errors.js';
import { clipsCommand } from './command.js';

loadDotEnv();
clipsCommand(process.argv.slice(3)).catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof HttpError) {
    console.error(`stacks: ${e.message}`);
    process.exit(2);
  }
  console.error(e);
  process.exit(1);
});

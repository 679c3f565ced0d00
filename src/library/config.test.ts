import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config/flags.js';
import { parseBindAddress, parseLibraryArgs } from './config.js';

describe('library configuration', () => {
  it('defaults to SQLite under ./data on port 8181', () => {
    const { config } = parseLibraryArgs([], {});
    expect(config).toMatchObject({ port: 8181, host: '0.0.0.0', dbKind: 'sqlite', dbDsn: './data/library.db', filePath: './data/files', ephemeral: false });
  });

  it('reads flags and their environment variables', () => {
    const { config } = parseLibraryArgs(['--db-type=POSTGRES', '-db-dsn', 'host=127.0.0.1 dbname=x'], { BIND_ADDRESS: '127.0.0.1:9000', DB_READONLY_DSN: 'ro', FILE_SAVE_PATH: '/srv/files' });
    expect(config).toMatchObject({ dbKind: 'postgres', dbDsn: 'host=127.0.0.1 dbname=x', host: '127.0.0.1', port: 9000, readonlyDsn: 'ro', filePath: '/srv/files' });
  });

  it('uses an in-memory database with -ephemeral', () => {
    expect(parseLibraryArgs(['-ephemeral'], {}).config).toMatchObject({ dbKind: 'sqlite', dbDsn: ':memory:', ephemeral: true });
    expect(parseLibraryArgs([], { EPHEMERAL: '1' }).config.ephemeral).toBe(true);
  });

  it('refuses bad values with a clear message', () => {
    expect(() => parseLibraryArgs(['-db-type', 'MYSQL'], {})).toThrow(/expected one of SQLITE, POSTGRES/);
    expect(() => parseLibraryArgs([], { DB_TYPE: 'sqlite' })).toThrow(ConfigError);
    expect(() => parseLibraryArgs(['-db-type=POSTGRES'], {})).toThrow(/-db-dsn is required/);
    expect(() => parseLibraryArgs(['-bind-address', 'localhost'], {})).toThrow(/invalid -bind-address/);
    expect(() => parseLibraryArgs(['-share-port', 'abc'], {})).toThrow(/invalid -share-port/);
    expect(() => parseLibraryArgs(['-file-save-path', ''], {})).toThrow(/file save path is empty/);
  });

  it('splits bind addresses', () => {
    expect(parseBindAddress(':8181')).toEqual({ host: '0.0.0.0', port: 8181 });
    expect(parseBindAddress('[::1]:80')).toEqual({ host: '::1', port: 80 });
    expect(() => parseBindAddress('1.2.3.4:99999')).toThrow();
  });
});

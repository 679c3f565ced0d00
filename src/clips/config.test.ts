import { describe, expect, it } from 'vitest';
import { parseClipArgs } from './config.js';

describe('stacks clips flags', () => {
  it('defaults to 127.0.0.1:8484 and ./data/clips', () => {
    const { config } = parseClipArgs([], {});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8484, bindAll: false, dataDir: './data/clips', cleanupIntervalMs: 60_000, bootstrapKey: false });
    expect(config).toMatchObject({ watchDebounceMs: 500, watchRecheckMs: 60_000, maxRestoreBytes: 8 * 1024 ** 3 });
  });

  it('reads the environment, with flags winning and booleans on only for 1', () => {
    const env = { CLIP_API_PORT: '9000', CLIP_DATA_DIR: '/srv/clips', CLIP_API_BIND_ALL: '1', CLIP_CLEANUP_INTERVAL_MS: '500', CLIP_BOOTSTRAP_KEY: '1' };
    expect(parseClipArgs([], env).config).toMatchObject({ port: 9000, dataDir: '/srv/clips', host: '0.0.0.0', bindAll: true, cleanupIntervalMs: 500, bootstrapKey: true });
    expect(parseClipArgs(['--port', '9100', '-data-dir=/x'], env).config).toMatchObject({ port: 9100, dataDir: '/x' });
    expect(parseClipArgs([], { CLIP_API_BIND_ALL: 'true' }).config.bindAll).toBe(false);
    expect(parseClipArgs(['--network'], {}).config.host).toBe('0.0.0.0');
    expect(parseClipArgs([], { CLIP_WATCH_DEBOUNCE_MS: '50', CLIP_WATCH_RECHECK_MS: '200' }).config).toMatchObject({ watchDebounceMs: 50, watchRecheckMs: 200 });
  });

  it('rejects bad values naming the flag or variable', () => {
    expect(() => parseClipArgs(['--port', 'x'], {})).toThrow('flag -port');
    expect(() => parseClipArgs(['--port', '70000'], {})).toThrow('invalid port');
    expect(() => parseClipArgs([], { CLIP_API_PORT: '-1' })).toThrow('CLIP_API_PORT');
    expect(() => parseClipArgs(['--nope'], {})).toThrow('unknown flag -nope');
  });
});

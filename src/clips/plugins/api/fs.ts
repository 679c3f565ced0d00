// The `fs` Lua module (companion §8.9): a path is usable when the manifest declares the
// capability and its real path (symbolic links resolved) lies inside the plugin's private
// directory or a folder granted to it. Relative paths are taken inside the private directory.
// At most 50 operations a minute; reads up to 50 MiB.
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { GrantRow } from '../repository.js';
import { bytesArg, guard, PluginApiError, textArg, withinRate, type PluginInstance } from './common.js';

export const MAX_FS_READ = 50 * 1024 * 1024;
export const MAX_FS_WRITE = 50 * 1024 * 1024;
const OPS_PER_MINUTE = 50;

type Access = 'read' | 'write';

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The deepest existing ancestor's real path joined with the rest (which does not exist yet). */
async function realTarget(path: string): Promise<string> {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = await realpath(existing);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      const parent = dirname(existing);
      if (parent === existing) throw e;
      rest.push(existing.slice(parent.length).replace(/^[\\/]+/, ''));
      existing = parent;
    }
  }
}

export function fsModule(plugin: PluginInstance, grants: () => Promise<GrantRow[]>) {
  const declared = plugin.manifest.filesystem;

  /** The real path to use, or a refusal naming the path the plugin gave. */
  const allowed = async (raw: unknown, access: Access): Promise<string> => {
    const given = textArg(raw, 'path');
    const denied = new PluginApiError(`permission denied: ${given}`);
    if (!declared[access] || given.includes('\0')) throw denied;
    await mkdir(plugin.privateDir, { recursive: true, mode: 0o700 });
    const absolute = isAbsolute(given) ? resolve(given) : resolve(plugin.privateDir, given);
    const real = await realTarget(absolute).catch(() => null);
    if (!real) throw denied;
    const roots = [await realpath(plugin.privateDir)];
    for (const g of await grants()) {
      if (g.permission_type !== `fs_${access}`) continue;
      const r = await realpath(g.path).catch(() => null);
      if (r) roots.push(r);
    }
    if (!roots.some((root) => inside(root, real))) throw denied;
    if (!withinRate(plugin, 'fs', OPS_PER_MINUTE)) throw new PluginApiError('rate limit exceeded: at most 50 file operations per minute');
    return real;
  };

  return {
    read: guard(async (path: unknown) => {
      const real = await allowed(path, 'read');
      const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw new PluginApiError(`not a file: ${textArg(path, 'path')}`);
        if (info.size > MAX_FS_READ) throw new PluginApiError('file exceeds 50 MiB limit');
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    }),
    write: guard(async (path: unknown, content: unknown) => {
      const real = await allowed(path, 'write');
      const data = bytesArg(content ?? '', 'content');
      if (data.length > MAX_FS_WRITE) throw new PluginApiError('content exceeds 50 MiB limit');
      await mkdir(dirname(real), { recursive: true });
      // The parents now exist: check again that they did not lead elsewhere meanwhile.
      if ((await realpath(dirname(real))) !== dirname(real)) throw new PluginApiError(`permission denied: ${textArg(path, 'path')}`);
      const handle = await open(real, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      return true;
    }, false),
    list: guard(async (path: unknown) => {
      const real = await allowed(path, 'read');
      const entries = await readdir(real, { withFileTypes: true });
      const out = [];
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        const info = await lstat(join(real, e.name)).catch(() => null);
        if (!info) continue;
        out.push({ name: e.name, is_dir: info.isDirectory(), size: info.size, modified: Math.floor(info.mtimeMs / 1000) });
      }
      return out;
    }),
    exists: async (path: unknown) => {
      try {
        const real = await allowed(path, 'read');
        await stat(real);
        return true;
      } catch {
        return false;
      }
    },
  };
}

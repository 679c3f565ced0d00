// mah.image (library-plugins.md §14): pad_to_aspect_ratio(data_uri, ratio) → data URI, width,
// height, or nil, err. The image work is shared with the clip plugin host (src/core/media/pad.ts).
import { luaText, multi } from '../../core/lua/index.js';
import { PadError, padToAspectRatio, parseRatio } from '../../core/media/pad.js';
import type { MahPlugin } from './mah.js';

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function installImage(plugin: MahPlugin, mah: Record<string, unknown>): void {
  if (!plugin.capabilities.includes('image')) return;
  mah.image = {
    pad_to_aspect_ratio: async (uri: unknown, ratio: unknown) => {
      try {
        const r = parseRatio(luaText(ratio) ?? '');
        const text = luaText(uri) ?? '';
        const comma = text.indexOf(',');
        if (comma < 0) return multi(null, 'invalid data URI: missing comma separator');
        const payload = text.slice(comma + 1).replace(/\s+/g, '');
        if (!B64.test(payload) || payload.length % 4 !== 0) return multi(null, 'base64 decode failed: illegal base64 data');
        const padded = await padToAspectRatio(Buffer.from(payload, 'base64'), r);
        return multi(`data:${padded.mime};base64,${padded.data.toString('base64')}`, padded.width, padded.height);
      } catch (e) {
        if (e instanceof PadError) return multi(null, e.message);
        throw e;
      }
    },
  };
}

// The `image` Lua module (companion §8.6). This version answers `info`; the producing functions
// (resize, overlay, composite, convert, colours, pixels, EXIF, diff) are not built yet and
// answer `nil, "not supported"` so plugins can detect that instead of failing.
import { multi } from '../../../core/lua/index.js';
import type { ClipApi } from './clips.js';
import { guard, idArg, PluginApiError } from './common.js';

const MAX_PIXELS = 100_000_000;
const UNSUPPORTED = ['resize', 'overlay_text', 'composite', 'convert', 'dominant_colors', 'grayscale_pixels', 'metadata', 'diff'];

export function imageModule(clips: ClipApi) {
  const module: Record<string, unknown> = {
    info: guard(async (id: unknown) => {
      const path = await clips.pathOf(idArg(id, 'clip id'));
      if (!path) throw new PluginApiError('clip not found');
      const { default: sharp } = await import('sharp');
      const meta = await sharp(path.file, { limitInputPixels: MAX_PIXELS }).metadata();
      return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? '', size: path.size, has_exif: meta.exif !== undefined };
    }),
  };
  for (const name of UNSUPPORTED) module[name] = () => multi(null, `image.${name} is not supported by this server`);
  return module;
}

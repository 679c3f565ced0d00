// library-plugins.md §32.18 T-137 image padding: mah.image.pad_to_aspect_ratio through a
// plugin endpoint, with the PNG/JPEG output rule and the error texts of §14.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWithPlugins, type PluginTestLibrary } from '../../helpers/plugins.js';
import { jpeg, png } from '../../helpers/resources.js';

const plugins: Record<string, string> = {
  padder: `plugin = { name = "padder", api_version = 1, capabilities = { "image", "api" } }
function init()
  mah.api("POST", "pad", function(ctx)
    local r = mah.json.decode(ctx.body)
    local uri, w, h = mah.image.pad_to_aspect_ratio(r.uri, r.ratio)
    if uri == nil then ctx.json({ err = w }) else ctx.json({ uri = uri, w = w, h = h }) end
  end)
end`,
};

let lib: PluginTestLibrary;
beforeAll(async () => {
  lib = await startWithPlugins(plugins);
  expect((await lib.enable('padder')).status).toBe(200);
}, 120_000);
afterAll(async () => lib?.close());

const pad = async (uri: string, ratio: string) => (await lib.json<{ uri?: string; w?: number; h?: number; err?: string }>('POST', '/v1/plugins/padder/pad', { uri, ratio })).body;
const dataUri = (mime: string, b: Buffer) => `data:${mime};base64,${b.toString('base64')}`;

describe('mah.image', () => {
  it('T-137 pads to the ratio and keeps the format rule', async () => {
    const wide = await pad(dataUri('image/png', await png(400, 300)), '16:9');
    expect(wide).toMatchObject({ w: 533, h: 300 });
    expect(wide.uri!.startsWith('data:image/png;base64,')).toBe(true);
    const decoded = await sharp(Buffer.from(wide.uri!.split(',')[1], 'base64')).metadata();
    expect([decoded.width, decoded.height, decoded.format]).toEqual([533, 300, 'png']);
    expect(await pad(dataUri('image/png', await png(200, 100)), '1:1')).toMatchObject({ w: 200, h: 200 });
    expect(await pad(dataUri('image/png', await png(100, 200)), '1:1')).toMatchObject({ w: 200, h: 200 });
    expect(await pad(dataUri('image/png', await png(200, 200)), '1:1')).toMatchObject({ w: 200, h: 200 });
    const j = await pad(dataUri('image/jpeg', await jpeg(80, 60)), '1:1');
    expect(j.uri!.startsWith('data:image/jpeg;base64,')).toBe(true);
  });

  it('T-137 error texts', async () => {
    const uri = dataUri('image/png', await png(20, 10));
    expect((await pad(uri, 'abc')).err).toMatch(/^invalid ratio format: /);
    expect((await pad(uri, '0:1')).err).toMatch(/^invalid ratio values: /);
    expect((await pad('no-comma', '1:1')).err).toBe('invalid data URI: missing comma separator');
    expect((await pad('data:image/png;base64,!!!!', '1:1')).err).toMatch(/^base64 decode failed: /);
    expect((await pad('data:image/png;base64,aGVsbG8=', '1:1')).err).toMatch(/^image decode failed: /);
  });
});

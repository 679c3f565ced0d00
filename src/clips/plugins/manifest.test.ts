// The static manifest reader (companion §8.1): literals only, never running the file.
import { describe, expect, it } from 'vitest';
import { handlerName, ManifestError, parseManifest } from './manifest.js';
import { isNewer, permissionsChanged } from './versions.js';

describe('parseManifest', () => {
  it('reads strings, numbers, booleans, nested tables and both key forms', () => {
    const m = parseManifest(`-- a comment with Plugin = { name = "Wrong" }
--[==[ long comment Plugin = { } ]==]
local helper = 1
Plugin = {
  ["name"] = 'Quoted \\'name\\'',
  version = [[1.2.3]],
  description = "tab\\there", author = "A";
  events = {"clip:created", "made:up", 42},
  network = {["API.example.com"] = {"get", "Post"}, ["*.cdn.example.com"] = {"GET"}},
  filesystem = {read = true},
  clipboard = true,
  schedules = {{name = "tick", interval = 1.5}, {name = "", interval = 3}, {name = "neg", interval = -1}},
  settings = {
    {key = "k", type = "select", label = "K", options = {"a", "b"}, required = true, default = "a"},
    {key = "bad", type = "select", label = "No options"},
    {key = "x", type = "colour", label = "Unknown type"},
  },
  ui = { lightbox_buttons = {{id = "l", label = "L", async = true, max_size = 1024, options = {{id = "r", type = "range", label = "R", min = 0, max = 10}, {id = "s", type = "select", label = "S"}}}}, card_actions = {{label = "no id"}} },
}
Plugin.name = "changed at run time"`);
    expect(m.name).toBe("Quoted 'name'");
    expect(m.version).toBe('1.2.3');
    expect(m.description).toBe('tab\there');
    expect(m.events).toEqual(['clip:created', 'made:up']);
    expect(m.network).toEqual({ 'api.example.com': ['GET', 'POST'], '*.cdn.example.com': ['GET'] });
    expect(m.filesystem).toEqual({ read: true, write: false });
    expect(m.clipboard).toBe(true);
    expect(m.schedules).toEqual([{ name: 'tick', interval: 1.5 }]);
    expect(m.settings).toEqual([{ key: 'k', type: 'select', label: 'K', options: ['a', 'b'], default: 'a' }]);
    expect(m.ui.lightbox_buttons).toEqual([{ id: 'l', label: 'L', async: true, max_size: 1024, options: [{ id: 'r', type: 'range', label: 'R', min: 0, max: 10 }] }]);
    expect(m.ui.card_actions).toEqual([]);
    expect(m.ui.global_actions).toEqual([]);
  });

  it('skips computed values instead of running them', () => {
    const m = parseManifest('Plugin = { name = "N", version = "1." .. minor, events = { os.exit(), "clip:deleted" }, author = f("x") }');
    expect(m.version).toBe('');
    expect(m.author).toBe('');
    expect(m.events).toEqual(['clip:deleted']);
  });

  it('refuses sources without a table or a name', () => {
    expect(() => parseManifest('local Plugin = 1')).toThrow(new ManifestError('plugin must define a Plugin table'));
    expect(() => parseManifest('x.Plugin = { name = "n" }')).toThrow('plugin must define a Plugin table');
    expect(() => parseManifest('Plugin = { version = "1" }')).toThrow('plugin must have a name');
    expect(() => parseManifest('Plugin = { name = "  " }')).toThrow('plugin must have a name');
    expect(() => parseManifest('Plugin = { name = "x"')).toThrow(ManifestError);
    expect(() => parseManifest('Plugin = { name = "x\n" }')).toThrow(ManifestError);
  });

  it('names handlers like the reference', () => {
    expect(handlerName('app:startup')).toBe('on_startup');
    expect(handlerName('clip:created')).toBe('on_clip_created');
    expect(handlerName('tag:added_to_clip')).toBe('on_tag_added_to_clip');
  });
});

describe('versions and permission changes', () => {
  it('compares semantic versions; unparsable ones are never newer', () => {
    expect(isNewer('1.1.0', '1.0.0')).toBe(true);
    expect(isNewer('v2.0.0', '1.9.9')).toBe(true);
    expect(isNewer('1.0.0', '1.0.0-beta')).toBe(true);
    expect(isNewer('1.0.0-beta.2', '1.0.0-beta.1')).toBe(true);
    expect(isNewer('1.0.0-beta', '1.0.0')).toBe(false);
    expect(isNewer('1.0', '0.1.0')).toBe(false);
    expect(isNewer('2.0.0', 'latest')).toBe(false);
  });

  it('sees added hosts, changed methods, gained access and new events', () => {
    const base = parseManifest('Plugin = { name = "a", events = {"clip:created"}, network = {["a.com"] = {"GET"}} }');
    const same = parseManifest('Plugin = { name = "a", events = {"clip:created"}, network = {["a.com"] = {"get"}}, filesystem = {read = false} }');
    expect(permissionsChanged(base, same)).toBe(false);
    expect(permissionsChanged(base, parseManifest('Plugin = { name = "a", events = {"clip:created"}, network = {["a.com"] = {"GET", "POST"}} }'))).toBe(true);
    expect(permissionsChanged(base, parseManifest('Plugin = { name = "a", events = {"clip:created"}, network = {} }'))).toBe(true);
    expect(permissionsChanged(base, parseManifest('Plugin = { name = "a", events = {"clip:created", "tag:created"}, network = {["a.com"] = {"GET"}} }'))).toBe(true);
    expect(permissionsChanged(base, parseManifest('Plugin = { name = "a", events = {}, clipboard = true, network = {["a.com"] = {"GET"}} }'))).toBe(true);
    expect(permissionsChanged(base, parseManifest('Plugin = { name = "a", events = {}, network = {["a.com"] = {"GET"}} }'))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { ArchiveError, classifyPath } from './reader.js';

describe('classifyPath', () => {
  it('names what each archive entry holds', () => {
    expect(classifyPath('manifest.json')).toEqual({ path: 'manifest.json', kind: 'manifest', key: '' });
    expect(classifyPath('./manifest.json').kind).toBe('manifest');
    expect(classifyPath('schemas/tags.json')).toEqual({ path: 'schemas/tags.json', kind: 'schema', key: 'tags' });
    expect(classifyPath('groups/g0001.json')).toEqual({ path: 'groups/g0001.json', kind: 'group', key: 'g0001' });
    expect(classifyPath('series/s0001.json').kind).toBe('series');
    expect(classifyPath(`blobs/${'a'.repeat(40)}`)).toMatchObject({ kind: 'blob', key: 'a'.repeat(40) });
    expect(classifyPath('previews/r0001-p0001')).toMatchObject({ kind: 'preview', key: 'r0001-p0001' });
  });

  it('treats unexpected but harmless names as other entries', () => {
    expect(classifyPath('blobs/not-a-hash').kind).toBe('other');
    expect(classifyPath('groups/sub/g0001.json').kind).toBe('other');
    expect(classifyPath('schemas/unknown.json').kind).toBe('other');
    expect(classifyPath('groups/.hidden.json').kind).toBe('other');
  });

  it('refuses names that could leave the staging folder', () => {
    for (const bad of ['../x', 'groups/../../x', 'a/..', '/etc/passwd', 'C:/x', 'C:\\x', 'a\\..\\b', 'a\u0000b', '', 'x'.repeat(300)]) {
      expect(() => classifyPath(bad), bad).toThrow(ArchiveError);
    }
  });
});

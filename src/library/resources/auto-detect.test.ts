import { describe, expect, it } from 'vitest';
import { detectCategory, matchRules, parseAutoDetectRules } from './auto-detect.js';

describe('AutoDetectRules', () => {
  it('validates on save', () => {
    expect(parseAutoDetectRules('')).toBeNull();
    for (const bad of ['{', '[]', '{"contentTypes":[]}', '{"contentTypes":["a"],"x":1}', '{"contentTypes":["a"],"width":{}}', '{"contentTypes":["a"],"width":{"min":"1"}}', '{"contentTypes":["a"],"priority":1.5}']) {
      expect(() => parseAutoDetectRules(bad), bad).toThrow();
    }
    expect(parseAutoDetectRules('{"contentTypes":["image/png"],"width":{"min":10},"priority":3}')).toMatchObject({ priority: 3, width: { min: 10 } });
  });

  it('checks ranges inclusively, skips dimension ranges when the size is unknown, counts specificity', () => {
    const rules = parseAutoDetectRules('{"contentTypes":["image/png"],"width":{"min":10,"max":20},"fileSize":{"max":100},"aspectRatio":{"max":2}}')!;
    expect(matchRules(rules, { contentType: 'image/png', fileSize: 100, width: 20, height: 10 })).toBe(4);
    expect(matchRules(rules, { contentType: 'image/png', fileSize: 101, width: 20, height: 10 })).toBeNull();
    expect(matchRules(rules, { contentType: 'image/png', fileSize: 50, width: 0, height: 0 })).toBe(2);
    expect(matchRules(rules, { contentType: 'image/jpeg', fileSize: 50, width: 15, height: 10 })).toBeNull();
  });

  it('picks by priority, then specificity, then lowest id, and skips broken rules', () => {
    const c = { contentType: 'image/png', fileSize: 10, width: 100, height: 100 };
    const cats = [
      { id: 5, name: 'plain', rules: '{"contentTypes":["image/png"]}' },
      { id: 3, name: 'plain too', rules: '{"contentTypes":["image/png"]}' },
      { id: 9, name: 'specific', rules: '{"contentTypes":["image/png"],"width":{"min":1}}' },
      { id: 7, name: 'broken', rules: '{oops' },
    ];
    expect(detectCategory(cats, c)).toBe(9);
    expect(detectCategory(cats.slice(0, 2), c)).toBe(3);
    expect(detectCategory([...cats, { id: 11, name: 'urgent', rules: '{"contentTypes":["image/png"],"priority":1}' }], c)).toBe(11);
    expect(detectCategory([], c)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { mentionsIn, renderMarkdown, safeUrl } from './markdown.js';

const md = (s: string) => renderMarkdown(s);

describe('renderMarkdown', () => {
  it('renders headings with ids, emphasis, strikethrough and code', () => {
    expect(md('# Hello *world*')).toBe('<h1 id="hello-world">Hello <em>world</em></h1>');
    expect(md('**bold** and ~~gone~~ and `x < y`')).toBe('<p><strong>bold</strong> and <del>gone</del> and <code>x &#60; y</code></p>');
    expect(md('# Same\n\n# Same')).toContain('id="same-1"');
  });

  it('keeps hard line breaks inside paragraphs', () => {
    expect(md('one\ntwo\n\nthree')).toBe('<p>one<br>\ntwo</p>\n<p>three</p>');
  });

  it('renders task lists with disabled checkboxes', () => {
    const html = md('- [x] done\n- [ ] todo\n- plain');
    expect(html).toContain('<ul class="task-list">');
    expect(html).toContain('<li class="task-list-item"><input type="checkbox" disabled checked aria-label="done"> done</li>');
    expect(html).toContain('<input type="checkbox" disabled aria-label="not done"> todo');
    expect(html).toContain('<li>plain</li>');
  });

  it('renders ordered lists, quotes, rules, fenced code and tables', () => {
    expect(md('3. a\n4. b')).toBe('<ol start="3"><li>a</li><li>b</li></ol>');
    expect(md('> quoted\n> more')).toBe('<blockquote><p>quoted<br>\nmore</p></blockquote>');
    expect(md('---')).toBe('<hr>');
    expect(md('```js\n<b>\n```')).toBe('<pre><code class="language-js">&#60;b&#62;</code></pre>');
    expect(md('| a | b |\n|:--|--:|\n| 1 | 2 |')).toBe('<table><thead><tr><th style="text-align:left">a</th><th style="text-align:right">b</th></tr></thead><tbody><tr><td style="text-align:left">1</td><td style="text-align:right">2</td></tr></tbody></table>');
  });

  it('links http(s), mailto and local addresses, and autolinks bare URLs', () => {
    expect(md('[site](https://example.org/a_b)')).toBe('<p><a href="https://example.org/a_b" rel="noopener noreferrer nofollow">site</a></p>');
    expect(md('[home](/dashboard)')).toBe('<p><a href="/dashboard">home</a></p>');
    expect(md('see https://example.org/x.')).toBe('<p>see <a href="https://example.org/x" rel="noopener noreferrer nofollow">https://example.org/x</a>.</p>');
  });

  describe('never lets markup through', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '[x](javascript:alert(1))',
      '[x](JaVaScRiPt:alert(1))',
      '[x](java\tscript:alert(1))',
      '[x](data:text/html;base64,PHNjcmlwdD4=)',
      '[x](vbscript:msgbox)',
      '![x](javascript:alert(1))',
      '[x](//evil.example/)',
      '[x"><script>](https://a.example/"onmouseover="alert(1))',
      '`<script>`',
      '| <b>h</b> |\n|---|\n| <i onclick=x>c</i> |',
      '- [ ] <svg onload=alert(1)>',
      '# <iframe src=x>',
      '@[note:1:<script>alert(1)</script>]',
      '<a href="javascript:alert(1)">x</a>',
    ];
    for (const attack of attacks) {
      it(JSON.stringify(attack), () => {
        const html = md(attack);
        expect(html).not.toMatch(/<(script|img[^>]*onerror|iframe|svg|b>|i |a href="(javascript|data|vbscript|\/\/))/i);
        expect(html).not.toMatch(/href="[^"]*script:/i);
        expect(html).not.toMatch(/\son\w+="/i);
      });
    }
  });

  it('passes mentions to the caller, alone on a line or inline', () => {
    const seen: string[] = [];
    const html = renderMarkdown('@[Resource:12:Photo]\n\nsee @[group:3:Trips] now', {
      mention: (m, alone) => {
        seen.push(`${m.type}:${m.id}:${m.name}:${alone}`);
        return `<a href="/${m.type}?id=${m.id}">M</a>`;
      },
    });
    expect(seen).toEqual(['resource:12:Photo:true', 'group:3:Trips:false']);
    expect(html).toBe('<a href="/resource?id=12">M</a>\n<p>see <a href="/group?id=3">M</a> now</p>');
  });

  it('finds mentions once each', () => {
    expect(mentionsIn('@[tag:1:a] @[TAG:1:a again] @[note:2:b] @[bad:3:c] @[note:0:z]')).toEqual([
      { type: 'tag', id: 1, name: 'a' },
      { type: 'note', id: 2, name: 'b' },
    ]);
  });

  it('does not hang on pathological input', () => {
    const html = md('*'.repeat(5000) + '[' .repeat(3000) + '_a'.repeat(3000));
    expect(html.length).toBeGreaterThan(0);
  });
});

describe('safeUrl', () => {
  it('refuses script-capable schemes', () => {
    for (const u of ['javascript:x', ' javascript:x', 'data:x', 'vbscript:x', 'file:///etc/passwd', '//host/x', 'java\nscript:x']) expect(safeUrl(u)).toBeNull();
    for (const u of ['https://a', 'http://a', 'mailto:a@b', '/x', '#y', 'rel/path']) expect(safeUrl(u)).toBe(u);
  });
});

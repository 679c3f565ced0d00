import { describe, expect, it } from 'vitest';
import { withoutForbiddenActions, type Permission } from './permitted.js';

const routes: Record<string, string> = { 'POST /v1/tag': 'write', 'POST /v1/category': 'editor', 'POST /v1/tags/delete': 'write', 'POST /logout': 'account' };

function as(granted: string[]): Permission {
  return {
    knows: (m, p) => routes[`${m} ${p}`] !== undefined,
    allows: (m, p) => routes[`${m} ${p}`] === undefined || granted.includes(routes[`${m} ${p}`]),
    canWrite: granted.includes('write'),
  };
}

const page = [
  '<a class="button" href="/tag/new">New tag</a>',
  '<a href="/category/edit?id=3">Edit</a>',
  '<a href="/note/new?ownerId=2">New note</a>',
  '<a href="/tags">Tags</a>',
  '<form method="post" action="/v1/tags/delete?redirect=%2Ftags"><input name="ID"><button>Delete</button></form>',
  '<form method="get" action="/tags"><input name="Name"></form>',
  '<form method="post" action="/logout"><button>Sign out</button></form>',
].join('\n');

describe('withoutForbiddenActions', () => {
  it('keeps everything for a role that may do everything', () => {
    expect(withoutForbiddenActions(page, as(['account', 'write', 'editor']))).toBe(page);
  });

  it('drops write forms and create/edit links for a reader', () => {
    const out = withoutForbiddenActions(page, as(['account']));
    expect(out).not.toContain('/tag/new');
    expect(out).not.toContain('/category/edit');
    expect(out).not.toContain('/note/new'); // no POST /v1/note declared here: needs write
    expect(out).not.toContain('/v1/tags/delete');
    expect(out).toContain('href="/tags"');
    expect(out).toContain('method="get" action="/tags"');
    expect(out).toContain('action="/logout"');
  });

  it('follows the entity route: a user may create tags but not categories', () => {
    const out = withoutForbiddenActions(page, as(['account', 'write']));
    expect(out).toContain('/tag/new');
    expect(out).toContain('/note/new');
    expect(out).not.toContain('/category/edit');
  });
});

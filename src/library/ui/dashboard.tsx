// /dashboard: the newest groups and tags. Resources and notes join it with their issues.
import type { FastifyInstance } from 'fastify';
import { h } from '../../core/html/jsx.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import type { TagService } from '../tags/service.js';
import { tagRecord } from '../tags/service.js';
import type { GroupService } from '../groups/service.js';

const RECENT = 6;

export function registerDashboard(app: FastifyInstance, layout: Layout, tags: TagService, groups: GroupService): void {
  registerPage(app, layout, {
    path: '/dashboard',
    load: async () => {
      const [recentTags, recentGroups] = await Promise.all([tags.crud.list({ page: 1 }, undefined, RECENT), groups.list({ page: 1 }, RECENT)]);
      return { pageTitle: 'Dashboard', groups: recentGroups.rows, tags: recentTags.rows.map(tagRecord) };
    },
    view: (ctx) => (
      <section class="dashboard">
        <h2>Recent groups</h2>
        <ul class="cards">
          {ctx.groups.map((g) => (
            <li class="card">
              <a href={`/group?id=${g.ID}`}>{g.Name}</a>
              {g.Category ? <small> · {g.Category.Name}</small> : null}
              <p>{g.Description}</p>
            </li>
          ))}
        </ul>
        {ctx.groups.length === 0 ? (
          <p class="empty">
            No groups yet. <a href="/group/new">Create a group</a>.
          </p>
        ) : null}
        <h2>Recent tags</h2>
        <ul class="cards">
          {ctx.tags.map((t) => (
            <li class="card">
              <a href={`/tag?id=${t.ID}`}>{t.Name}</a>
              <p>{t.Description}</p>
            </li>
          ))}
        </ul>
        {ctx.tags.length === 0 ? (
          <p class="empty">
            No tags yet. <a href="/tag/new">Create a tag</a>.
          </p>
        ) : null}
      </section>
    ),
  });
}

// Account pages (companion §6.4): /account (own password, API tokens with a copy-once display,
// UI settings, saved searches) and, for administrators, /admin/users and /admin/users/edit.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { h, type SafeHtml } from '../../core/html/jsx.js';
import { formatDate } from '../ui/dates.js';
import { registerPage, type Layout } from '../../core/http/pages.js';
import { makeBag, readParams } from '../../core/http/params.js';
import { FormPage, Picker, PostButton, firstOf, queryOf, type PickerItem } from '../ui/components.js';
import { ROLES } from '../auth/principal.js';
import { authEnabledFor } from '../auth/pipeline.js';
import type { AuthService } from '../auth/service.js';
import type { AccountSettings } from './settings.js';
import { userRecord, type UserRecord, type UserService } from './service.js';

const EXPIRY_CHOICES: [string, string][] = [
  ['', 'Never'],
  ['24h', '1 day'],
  ['168h', '7 days'],
  ['720h', '30 days'],
  ['2160h', '90 days'],
  ['8760h', '1 year'],
];

const NOTICES: Record<string, string> = { password: 'Your password was changed. Your other sessions have been signed out.' };

function when(ts: string | undefined): string {
  return ts ? formatDate(ts) : '—';
}

function RoleSelect(props: { selected: string }): SafeHtml {
  return (
    <label class="field">
      <span>Role</span>
      <select name="role">
        {ROLES.map((r) => (
          <option value={r} selected={r === props.selected}>
            {r}
          </option>
        ))}
      </select>
      <small>Guests read only and must be limited to a group; users write; editors also manage taxonomy and relations; admins manage everything.</small>
    </label>
  );
}

/** Create and edit form of an account; values typed before a failed post come back in the query. */
function UserForm(props: { req: FastifyRequest; user?: UserRecord; scope: PickerItem[] }): SafeHtml {
  const q = queryOf(props.req);
  const u = props.user;
  const typed = (name: string, stored: string | undefined) => (firstOf(q[name]) !== '' ? firstOf(q[name]) : (stored ?? ''));
  return (
    <form method="post" action={u ? '/v1/user' : '/v1/users'} class="card form" data-testid="user-form">
      <FormPage req={props.req} />
      {u ? <input type="hidden" name="id" value={u.ID} /> : null}
      <label class="field">
        <span>Username</span>
        <input type="text" name="username" required autocomplete="off" value={typed('username', u?.username)} />
      </label>
      <label class="field">
        <span>Display name</span>
        <input type="text" name="displayName" autocomplete="off" value={typed('displayName', u?.displayName)} />
      </label>
      <label class="field">
        <span>{u ? 'New password' : 'Password'}</span>
        <input type="password" name="password" autocomplete="new-password" minlength="8" required={!u} />
        <small>{u ? 'Leave empty to keep the current password. A new one signs the account out everywhere.' : 'At least 8 characters, at most 72 bytes.'}</small>
      </label>
      <RoleSelect selected={typed('role', u?.role ?? 'user')} />
      <Picker label="Limited to group" name="scopeGroupId" source="/v1/groups" multiple={false} empty="" selected={props.scope} hint="The account sees and changes only this group and its descendants (required for guests; ignored for editors and admins)." />
      <input type="hidden" name="disabledPresent" value="1" />
      <label class="field checkbox">
        <input type="checkbox" name="disabled" value="true" checked={u?.disabled ?? false} />
        <span>Disabled (cannot sign in; its sessions and tokens end)</span>
      </label>
      <button type="submit">{u ? 'Save account' : 'Create account'}</button>
    </form>
  );
}

export function registerAccountPages(app: FastifyInstance, layout: Layout, users: UserService, auth: AuthService, settings: AccountSettings): void {
  const scopePick = async (ids: (number | undefined)[]): Promise<Map<number, string>> => users.scopeGroupNames(ids.filter((id): id is number => id !== undefined));

  registerPage(app, layout, {
    path: '/account',
    needs: 'account',
    load: async (req) => {
      const signedIn = authEnabledFor(req);
      const userId = req.principal.userId;
      const user = userRecord(await users.require(userId));
      const stored = await settings.all(userId);
      return {
        pageTitle: 'Your account',
        user,
        tokens: signedIn ? await auth.listTokens(userId) : [],
        settings: stored,
        notice: NOTICES[firstOf(queryOf(req).changed)],
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _signedIn: signedIn,
      };
    },
    view: (ctx, req) => (
      <div class="account">
        {ctx.notice ? (
          <div class="notice" role="status">
            {ctx.notice}
          </div>
        ) : null}
        <section class="card" aria-labelledby="who">
          <h2 id="who">Signed in as {ctx.user.displayName || ctx.user.username}</h2>
          <dl class="facts">
            <dt>Username</dt>
            <dd data-testid="account-username">{ctx.user.username}</dd>
            <dt>Role</dt>
            <dd>{ctx.user.role}</dd>
            <dt>Last sign-in</dt>
            <dd>{when(ctx.user.lastLoginAt)}</dd>
          </dl>
          {!ctx._signedIn ? <p class="hint">Accounts are off (start with -auth to turn them on): everyone acts as this administrator, and passwords and API tokens are not used.</p> : null}
        </section>

        {ctx._signedIn ? (
          <section class="card" aria-labelledby="password-heading">
            <h2 id="password-heading">Change password</h2>
            <form method="post" action="/v1/account/password" class="form" x-data="{ next: '', again: '' }" {...{ '@submit': "if (next !== again) { $event.preventDefault(); $refs.mismatch.hidden = false }" }}>
              <FormPage req={req} />
              <label class="field">
                <span>Current password</span>
                <input type="password" name="currentPassword" autocomplete="current-password" required />
              </label>
              <label class="field">
                <span>New password</span>
                <input type="password" name="newPassword" autocomplete="new-password" minlength="8" required x-model="next" />
                <small>At least 8 characters, at most 72 bytes. Your other sessions will be signed out; API tokens keep working.</small>
              </label>
              <label class="field">
                <span>New password again</span>
                <input type="password" autocomplete="new-password" minlength="8" required x-model="again" />
              </label>
              <p class="error-banner" x-ref="mismatch" role="alert" hidden>
                The two new passwords differ.
              </p>
              <button type="submit">Change password</button>
            </form>
          </section>
        ) : null}

        {ctx._signedIn ? (
          <section class="card" aria-labelledby="tokens-heading" x-data="tokenMinter()">
            <h2 id="tokens-heading">API tokens</h2>
            <p class="hint">
              Send a token as <code>Authorization: Bearer &lt;token&gt;</code>. It acts as you, with your role. Stacks keeps only a fingerprint: the token is shown once, when it is made.
            </p>
            <div class="token-once" x-show="minted" x-cloak data-testid="token-once" role="region" aria-label="New API token">
              <p>
                <strong>Copy this token now.</strong> It will not be shown again.
              </p>
              <div class="token-row">
                <input type="text" readonly aria-label="New API token" x-bind:value="minted ? minted.token : ''" x-ref="token" data-testid="token-value" {...{ '@focus': '$event.target.select()' }} />
                <button type="button" {...{ '@click': 'copy()' }} x-text="copied ? 'Copied' : 'Copy'"></button>
              </div>
              <button type="button" class="secondary" {...{ '@click': 'dismiss()' }}>
                I have stored it
              </button>
            </div>
            <form class="form inline-form" x-show="!minted" {...{ '@submit.prevent': 'mint($el)' }} data-testid="token-form">
              <label class="field">
                <span>Name</span>
                <input type="text" name="name" required maxlength="200" placeholder="e.g. laptop script" />
              </label>
              <label class="field">
                <span>Expires after</span>
                <select name="expiresIn">
                  {EXPIRY_CHOICES.map(([value, label]) => (
                    <option value={value}>{label}</option>
                  ))}
                </select>
              </label>
              <button type="submit" x-bind:disabled="busy">
                Create token
              </button>
            </form>
            <p class="error-banner" role="alert" x-show="error" x-text="error" x-cloak></p>
            {ctx.tokens.length === 0 ? (
              <p class="empty">No API tokens yet.</p>
            ) : (
              <table class="list" data-testid="token-list">
                <thead>
                  <tr>
                    <th>Name</th>
                    <th>Starts with</th>
                    <th>Created</th>
                    <th>Expires</th>
                    <th>Last used</th>
                    <th>
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {ctx.tokens.map((t) => (
                    <tr>
                      <td>{t.name}</td>
                      <td>
                        <code>{t.prefix}…</code>
                      </td>
                      <td>{when(t.CreatedAt)}</td>
                      <td>{t.expiresAt ? when(t.expiresAt) : 'never'}</td>
                      <td>{when(t.lastUsedAt)}</td>
                      <td>
                        <PostButton action="/v1/account/tokens/delete" label="Revoke" danger confirm={`Revoke the token "${t.name}"? Programs using it stop working.`} fields={{ id: t.ID }} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        ) : null}

        <section class="card" aria-labelledby="settings-heading">
          <h2 id="settings-heading">Display settings</h2>
          <div class="field checkbox" x-data={`accountSetting('showDescriptions', ${JSON.stringify(ctx.settings.showDescriptions === true)})`}>
            <input id="set-desc" type="checkbox" x-model="on" {...{ '@change': 'save()' }} checked={ctx.settings.showDescriptions === true} />
            <label for="set-desc">Show descriptions in lists</label>
            <small x-show="error" x-text="error" role="alert"></small>
          </div>
          <div class="field checkbox" x-data={`accountSetting('showHoverPreviews', ${JSON.stringify(ctx.settings.showHoverPreviews !== false)})`}>
            <input id="set-hover" type="checkbox" x-model="on" {...{ '@change': 'save()' }} checked={ctx.settings.showHoverPreviews !== false} />
            <label for="set-hover">Show previews when hovering links</label>
            <small x-show="error" x-text="error" role="alert"></small>
          </div>
        </section>
        <script src="/public/account.js"></script>
      </div>
    ),
  });

  registerPage(app, layout, {
    path: '/admin/users',
    needs: 'system',
    load: async (req) => {
      const list = await users.list(0, 0);
      const names = await scopePick(list.map((u) => u.scopeGroupId));
      return {
        pageTitle: 'Users',
        users: list,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _scopes: names,
        _newScope: await scopePick([Number(firstOf(queryOf(req).scopeGroupId)) || undefined]),
      };
    },
    view: (ctx, req) => (
      <div class="users">
        <table class="list" data-testid="user-list">
          <thead>
            <tr>
              <th>Username</th>
              <th>Display name</th>
              <th>Role</th>
              <th>Limited to</th>
              <th>Status</th>
              <th>Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {ctx.users.map((u) => (
              <tr>
                <td>
                  <a href={`/admin/users/edit?id=${u.ID}`}>{u.username}</a>
                </td>
                <td>{u.displayName}</td>
                <td>{u.role}</td>
                <td>{u.scopeGroupId !== undefined ? <a href={`/group?id=${u.scopeGroupId}`}>{ctx._scopes.get(u.scopeGroupId) ?? `#${u.scopeGroupId}`}</a> : '—'}</td>
                <td>{u.disabled ? <span class="badge danger">disabled</span> : <span class="badge">active</span>}</td>
                <td>{when(u.lastLoginAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <details class="card" open={firstOf(queryOf(req).error) !== ''}>
          <summary>
            <h2>New account</h2>
          </summary>
          <UserForm req={req} scope={[...ctx._newScope].map(([id, name]) => ({ id, name }))} />
        </details>
      </div>
    ),
  });

  registerPage(app, layout, {
    path: '/admin/users/edit',
    needs: 'system',
    load: async (req) => {
      const { id } = readParams(Type.Object({ id: Type.Integer() }), makeBag(req.query));
      const user = userRecord(await users.require(id));
      const names = await scopePick([user.scopeGroupId]);
      return {
        pageTitle: `Edit ${user.username}`,
        user,
        errorMessage: firstOf(queryOf(req).error) || undefined,
        _scope: user.scopeGroupId !== undefined ? [{ id: user.scopeGroupId, name: names.get(user.scopeGroupId) ?? `#${user.scopeGroupId}` }] : [],
        _layout: {
          breadcrumb: (
            <nav class="breadcrumb" aria-label="Breadcrumb">
              <a href="/admin/users">Users</a>
            </nav>
          ),
        },
      };
    },
    view: (ctx, req) => (
      <div class="users">
        <UserForm req={req} user={ctx.user} scope={ctx._scope} />
        <section class="card danger-zone" aria-labelledby="delete-heading">
          <h2 id="delete-heading">Delete account</h2>
          <p>Its sessions and API tokens end; what it created stays, without an author.</p>
          <form method="post" action="/v1/user/delete" x-data="" {...{ '@submit': `if (!confirm(${JSON.stringify(`Delete the account "${ctx.user.username}"? This cannot be undone.`)})) $event.preventDefault()` }}>
            <FormPage req={req} />
            <input type="hidden" name="id" value={ctx.user.ID} />
            <button type="submit" class="danger">
              Delete account
            </button>
          </form>
        </section>
      </div>
    ),
  });
}

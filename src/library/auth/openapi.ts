// The permission table in the OpenAPI description: every operation already carries its
// capability as `x-needs`; this adds the roles that hold it (`x-roles`), the credentials it
// accepts, and the 401/403 answers of the request pipeline (companion §10.8, §10.9).
import { rolesWith, type Capability } from './principal.js';

const ERROR = { $ref: '#/components/schemas/Error' };

interface Operation {
  'x-needs'?: Capability;
  description?: string;
  security?: unknown[];
  responses?: Record<string, unknown>;
  [key: string]: unknown;
}

const MEANING: Record<Capability, string> = {
  public: 'No credential needed.',
  account: 'Any signed-in account (own session and account).',
  read: 'Any signed-in role (group-limited accounts see their subtree).',
  write: 'Content writes: user, editor or admin.',
  editor: 'Editor writes: editor or admin.',
  partials: 'Template-partial writes: admin.',
  system: 'System administration: admin.',
};

export function describeApi(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) {
      const needs = op['x-needs'];
      if (!needs) continue;
      op['x-roles'] = needs === 'public' ? [] : rolesWith(needs);
      op.description = `${op.description ? `${op.description}\n\n` : ''}With -auth: ${MEANING[needs]}`;
      if (needs === 'public') {
        op.security = [];
        continue;
      }
      op.security = [{ bearer: [] }, { session: [] }];
      op.responses = {
        ...op.responses,
        '401': { description: 'with -auth: missing or invalid credential', content: { 'application/json': { schema: ERROR } } },
        '403': { description: 'with -auth: the role lacks the capability, or a cookie-authenticated write without its CSRF token', content: { 'application/json': { schema: ERROR } } },
      };
    }
  }
  return {
    ...doc,
    components: {
      ...((doc.components as Record<string, unknown>) ?? {}),
      schemas: { Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] } },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API token from POST /v1/account/tokens' },
        session: { type: 'apiKey', in: 'cookie', name: 'mr_session', description: 'session cookie from POST /v1/auth/login; writes also need X-CSRF-Token (csrfToken of GET /v1/auth/me)' },
      },
    },
  };
}

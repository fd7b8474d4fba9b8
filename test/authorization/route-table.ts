/**
 * The authorization route table, written down by hand from docs/authorization.md's rules (not read from the
 * decorators, so that it checks them): for every route Swagger documents, what a caller needs. A route the server
 * serves and this table lacks fails route-matrix.e2e-spec.ts, and so does an entry naming a route the server lacks.
 *
 * Also the example policy (docs/authorization.example.yml) restated as data, with its meaning as a function: a role
 * may do an action on a resource in a namespace (null: where the request names none).
 */
import type { Action, Resource } from '../../src/authorization/policy';

/**
 * - needs: each permission, in the namespace the request names (`path`: wherever the route reads it — path, body,
 *   query or header), only when it names one (`ifNamed`), or outside namespaces (`none`);
 * - any: any credential; public: none needed; viewable: the namespace list, cut to what the caller may read.
 */
export type Need =
  | { needs: ReadonlyArray<{ resource: Resource; action: Action }>; namespace: 'path' | 'none' | 'ifNamed' }
  | 'any'
  | 'public'
  | 'viewable';

const ACTION_OF: Record<string, Action> = { GET: 'read', POST: 'create', PUT: 'update', DELETE: 'delete' };

/** The HTTP method's action on `resource`, in the request's namespace. */
const on = (resource: Resource) => (method: string): Need => ({ needs: [{ resource, action: ACTION_OF[method] }], namespace: 'path' });
const readNamespace: Need = { needs: [{ resource: 'namespace', action: 'read' }], namespace: 'path' };
const tokens = (action: Action): Need => ({ needs: [{ resource: 'authentication', action }], namespace: 'none' });

/** Each management route twice: under /api/v1/namespaces/{namespaceKey}/ and Flipt's legacy /api/v1/ (namespace in query or body). */
function management(entries: Array<[string, string, Resource]>): Array<[string, Need]> {
  return entries.flatMap(([method, rest, resource]) => [
    [`${method} /api/v1/namespaces/{namespaceKey}/${rest}`, on(resource)(method)],
    [`${method} /api/v1/${rest}`, on(resource)(method)],
  ]);
}

/** Keys are `METHOD /path/{param}` as Swagger writes them. */
export const ROUTE_TABLE: Readonly<Record<string, Need>> = Object.fromEntries<Need>([
  // Public: no credential at all.
  ['GET /health', 'public'],
  ['GET /health/live', 'public'],
  ['GET /health/ready', 'public'],
  ['GET /auth/v1/method', 'public'],

  // Any credential: its own authentication, and facts about the server.
  ['GET /auth/v1/self', 'any'],
  ['PUT /auth/v1/self/expire', 'any'],
  ['GET /auth/v1/self/permissions', 'any'],
  ['GET /meta/info', 'any'],
  ['GET /meta/config', 'any'],
  ['GET /metrics', 'any'],
  ['GET /ofrep/v1/configuration', 'any'],

  // Tokens: the `authentication` resource, which lives in no namespace.
  ['POST /auth/v1/method/token', tokens('create')],
  ['GET /auth/v1/tokens', tokens('read')],
  ['GET /auth/v1/tokens/{id}', tokens('read')],
  ['DELETE /auth/v1/tokens/{id}', tokens('delete')],

  // The audit trail: in the namespace asked for, or (none named) everywhere.
  ['GET /api/v1/audit/events', { needs: [{ resource: 'audit', action: 'read' }], namespace: 'ifNamed' }],

  // Namespaces: the list is cut; the rest acts on the namespace the path (or the created body) names.
  ['GET /api/v1/namespaces', 'viewable'],
  ['POST /api/v1/namespaces', on('namespace')('POST')],
  ['GET /api/v1/namespaces/{key}', on('namespace')('GET')],
  ['PUT /api/v1/namespaces/{key}', on('namespace')('PUT')],
  ['DELETE /api/v1/namespaces/{key}', on('namespace')('DELETE')],

  // Flags and what hangs off them (variants, rules, distributions, rollouts) are `flag`; segments and constraints `segment`.
  ...management([
    ['GET', 'flags', 'flag'],
    ['POST', 'flags', 'flag'],
    ['GET', 'flags/{key}', 'flag'],
    ['PUT', 'flags/{key}', 'flag'],
    ['DELETE', 'flags/{key}', 'flag'],
    ['POST', 'flags/{flagKey}/variants', 'flag'],
    ['PUT', 'flags/{flagKey}/variants/{id}', 'flag'],
    ['DELETE', 'flags/{flagKey}/variants/{id}', 'flag'],
    ['GET', 'flags/{flagKey}/rules', 'flag'],
    ['POST', 'flags/{flagKey}/rules', 'flag'],
    ['GET', 'flags/{flagKey}/rules/{id}', 'flag'],
    ['PUT', 'flags/{flagKey}/rules/{id}', 'flag'],
    ['DELETE', 'flags/{flagKey}/rules/{id}', 'flag'],
    ['PUT', 'flags/{flagKey}/rules/order', 'flag'],
    ['POST', 'flags/{flagKey}/rules/{ruleId}/distributions', 'flag'],
    ['PUT', 'flags/{flagKey}/rules/{ruleId}/distributions/{id}', 'flag'],
    ['DELETE', 'flags/{flagKey}/rules/{ruleId}/distributions/{id}', 'flag'],
    ['GET', 'segments', 'segment'],
    ['POST', 'segments', 'segment'],
    ['GET', 'segments/{key}', 'segment'],
    ['PUT', 'segments/{key}', 'segment'],
    ['DELETE', 'segments/{key}', 'segment'],
    ['POST', 'segments/{segmentKey}/constraints', 'segment'],
    ['PUT', 'segments/{segmentKey}/constraints/{id}', 'segment'],
    ['DELETE', 'segments/{segmentKey}/constraints/{id}', 'segment'],
  ]),
  // Rollouts have no legacy route.
  ['GET /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/rollouts', on('flag')('GET')],
  ['POST /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/rollouts', on('flag')('POST')],
  ['GET /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/rollouts/{id}', on('flag')('GET')],
  ['PUT /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/rollouts/{id}', on('flag')('PUT')],
  ['DELETE /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/rollouts/{id}', on('flag')('DELETE')],
  ['PUT /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/rollouts/order', on('flag')('PUT')],
  // Flag lifecycle (Flagpole's): reading flags.
  ['GET /api/v1/namespaces/{namespaceKey}/flags/{key}/lifecycle', on('flag')('GET')],
  ['GET /api/v1/namespaces/{namespaceKey}/flag-health', on('flag')('GET')],
  // Scheduled changes (Flagpole's): reading needs `read` on flag; making, editing or cancelling one needs what its
  // changes need, `update` on flag, whatever the HTTP method.
  ['GET /api/v1/namespaces/{namespaceKey}/schedules', on('flag')('GET')],
  ['GET /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules', on('flag')('GET')],
  ['GET /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules/{id}', on('flag')('GET')],
  ['POST /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules', on('flag')('PUT')],
  ['PUT /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules/{id}', on('flag')('PUT')],
  ['POST /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules/{id}/pause', on('flag')('PUT')],
  ['POST /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules/{id}/resume', on('flag')('PUT')],
  ['DELETE /api/v1/namespaces/{namespaceKey}/flags/{flagKey}/schedules/{id}', on('flag')('PUT')],

  // Flags as code: an export reads flags and segments; an import may create, change and delete both.
  ['GET /api/v1/namespaces/{namespaceKey}/export', { needs: [{ resource: 'flag', action: 'read' }, { resource: 'segment', action: 'read' }], namespace: 'path' }],
  [
    'POST /api/v1/namespaces/{namespaceKey}/import',
    {
      needs: (['flag', 'segment'] as const).flatMap((resource) => (['create', 'update', 'delete'] as const).map((action) => ({ resource, action }))),
      namespace: 'path',
    },
  ],

  // Evaluation, OFREP and snapshots: read on the namespace evaluated.
  ['POST /evaluate/v1/variant', readNamespace],
  ['POST /evaluate/v1/boolean', readNamespace],
  ['POST /evaluate/v1/batch', readNamespace],
  ['POST /api/v1/evaluate', readNamespace],
  ['POST /api/v1/namespaces/{namespaceKey}/evaluate', readNamespace],
  ['POST /api/v1/batch-evaluate', readNamespace],
  ['POST /api/v1/namespaces/{namespaceKey}/batch-evaluate', readNamespace],
  ['GET /internal/v1/evaluation/snapshot/namespace/{key}', readNamespace],
  ['GET /internal/v1/evaluation/snapshot/namespace/{key}/stream', readNamespace],
  ['POST /ofrep/v1/evaluate/flags/{key}', readNamespace],
  ['POST /ofrep/v1/evaluate/flags', readNamespace],
  ['GET /ofrep/v1/_stream/{namespaceKey}/events', readNamespace],

  // Analytics (the matrix's server has it on): evaluation counts are read on the flags they count.
  ['GET /internal/v1/analytics/namespaces/{namespaceKey}/flags/{flagKey}', on('flag')('GET')],
  ['POST /internal/v1/analytics/namespaces/{namespaceKey}/flags', { needs: [{ resource: 'flag', action: 'read' }], namespace: 'path' }],
]);

/** Login flows: public, and mounted only when their method is enabled (they are not on the server of the matrix). */
export const LOGIN_ROUTES: Readonly<Record<string, Need>> = Object.fromEntries<Need>(
  [
    'GET /auth/v1/method/oidc/{provider}/authorize',
    'GET /auth/v1/method/oidc/{provider}/callback',
    'GET /auth/v1/method/github/authorize',
    'GET /auth/v1/method/github/callback',
    'GET /auth/v1/method/codehost/authorize',
    'GET /auth/v1/method/codehost/callback',
    'POST /auth/v1/method/kubernetes/serviceaccount',
    'POST /auth/v1/method/orchestrator/serviceaccount',
  ].map((route) => [route, 'public']),
);

// ---- the example policy ------------------------------------------------------------------------------------------

interface Rule {
  resources: readonly Resource[] | '*';
  actions: readonly Action[] | '*';
  /** Names or `prefix-*` globs; absent: everywhere, including where no namespace is named. */
  namespaces?: readonly string[];
}

/** docs/authorization.example.yml, role by role. `nobody` is a role no binding gives (the default role is none). */
export const EXAMPLE_ROLES: Readonly<Record<string, readonly Rule[]>> = {
  admin: [{ resources: '*', actions: '*' }],
  'production-editor': [
    { resources: ['flag', 'segment'], actions: '*', namespaces: ['production'] },
    { resources: ['namespace', 'audit'], actions: ['read'], namespaces: ['production'] },
  ],
  'team-editor': [{ resources: ['namespace', 'flag', 'segment'], actions: '*', namespaces: ['team-*'] }],
  viewer: [{ resources: ['namespace', 'flag', 'segment'], actions: ['read'] }],
  evaluator: [{ resources: ['namespace'], actions: ['read'], namespaces: ['production', 'staging'] }],
  nobody: [],
};

function inNamespace(patterns: readonly string[], namespace: string): boolean {
  return patterns.some((p) => (p.endsWith('*') ? namespace.startsWith(p.slice(0, -1)) : namespace === p));
}

/** May `role` do `action` on `resource` in `namespace`? A rule limited to namespaces never applies where none is named. */
export function roleAllows(role: string, resource: Resource, action: Action, namespace: string | null): boolean {
  return (EXAMPLE_ROLES[role] ?? []).some(
    (rule) =>
      (rule.resources === '*' || rule.resources.includes(resource)) &&
      (rule.actions === '*' || rule.actions.includes(action)) &&
      (rule.namespaces === undefined || (namespace !== null && inNamespace(rule.namespaces, namespace))),
  );
}

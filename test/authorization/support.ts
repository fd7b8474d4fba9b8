/** Shared pieces of the authorization suites: the example policy of docs/authorization.md, and a server that enforces it. */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bearer, BOOTSTRAP, TOKEN_REQUIRED } from '../auth/support';
import { client, startFlagpole, type RunningFlagpole } from '../support/flagpole';

/** docs/authorization.example.yml: the policy shipped as the example, tested as shipped. */
export const EXAMPLE_POLICY = join(__dirname, '..', '..', 'docs', 'authorization.example.yml');

/** A directory holding a copy of the example policy (or `text`) as policy.yml, for a server to read and tests to edit. */
export function policyFile(text?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'flagpole-policy-'));
  const path = join(dir, 'policy.yml');
  if (text === undefined) copyFileSync(EXAMPLE_POLICY, path);
  else writeFileSync(path, text);
  return path;
}

/** Authentication (static tokens; the example policy makes the bootstrap token an admin) and authorization with the policy at `path`. */
export function authorizationEnv(path: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...TOKEN_REQUIRED,
    FLAGPOLE_AUTHORIZATION_REQUIRED: 'true',
    FLAGPOLE_AUTHORIZATION_LOCAL_POLICY_PATH: path,
    ...extra,
  };
}

export async function startAuthorized(path = policyFile(), extra: Record<string, string> = {}): Promise<RunningFlagpole & { admin: ReturnType<typeof client> }> {
  const fp = await startFlagpole(authorizationEnv(path, extra));
  return Object.assign(fp, { admin: client(fp.url, bearer(BOOTSTRAP)) });
}

/** A static token holding `role` (by its metadata), made by the admin; `namespaceKey` binds it to one namespace. */
export async function tokenWithRole(admin: ReturnType<typeof client>, role: string, namespaceKey?: string): Promise<string> {
  const r = await admin.post('/auth/v1/method/token', { name: `${role}-token`, metadata: { 'io.flagpole.auth.role': role }, ...(namespaceKey ? { namespaceKey } : {}) });
  if (r.status !== 200) throw new Error(`token for ${role}: ${r.status} ${r.text}`);
  return (r.body as { clientToken: string }).clientToken;
}

/** Flipt's PermissionDenied body. */
export const DENIED = { code: 7, message: 'permission denied', details: [] };

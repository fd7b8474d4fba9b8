/**
 * Which roles a credential holds under a policy: every binding whose method and conditions it meets, plus the role
 * a static token or a JWT names itself (`io.flagpole.auth.role`, or Flipt's `io.flipt.auth.role`: in metadata the
 * token's creator set, or in a claim the JWT's issuer signed), else the policy's default role. Pure.
 *
 * What each method shows, as its authentication stores it (docs/authentication.md):
 * - token: its metadata;
 * - oidc: the ID token's claims (`io.flagpole.auth.claims`, JSON) and the provider (`io.flagpole.auth.oidc.provider`);
 * - github: organisations and teams (`io.flagpole.auth.github.organizations` / `.teams`, JSON; needs `read:org`);
 * - kubernetes: the service account's namespace and name (`io.flagpole.auth.k8s.*`);
 * - jwt: the verified token's claims.
 */
import { Method } from '../wire';
import type { BindingMatch, Policy } from './policy';

/** The facts of an authentication bindings look at (an AuthenticationRecord plus a JWT's claims). */
export interface CredentialFacts {
  method: Method;
  metadata: Readonly<Record<string, string>>;
  /** A JWT's verified claims (other methods keep theirs in metadata). */
  claims?: Readonly<Record<string, unknown>>;
}

export const ROLE_KEYS = ['io.flagpole.auth.role', 'io.flipt.auth.role'] as const;

const PREFIX = 'io.flagpole.auth';

/** The role names the credential holds, sorted, without repeats; unknown self-named roles are left out. */
export function rolesOf(policy: Policy, credential: CredentialFacts): string[] {
  const held = new Set<string>();
  for (const name of selfNamedRoles(credential)) if (policy.roles.has(name)) held.add(name);
  for (const binding of policy.bindings) {
    if (binding.roles.every((r) => held.has(r))) continue;
    if (matches(binding.match, credential)) binding.roles.forEach((r) => held.add(r));
  }
  if (!held.size && policy.defaultRole) held.add(policy.defaultRole);
  return [...held].sort();
}

/** Roles a static token's metadata or a JWT's claims name (comma-separated lists allowed). */
function selfNamedRoles(credential: CredentialFacts): string[] {
  let named: unknown[] = [];
  if (credential.method === Method.METHOD_TOKEN) named = ROLE_KEYS.map((k) => credential.metadata[k]);
  else if (credential.method === Method.METHOD_JWT) named = ROLE_KEYS.map((k) => credential.claims?.[k] ?? credential.metadata[k]);
  return named.flatMap((v) => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [])).map((v) => String(v).trim()).filter(Boolean);
}

function matches(match: BindingMatch, c: CredentialFacts): boolean {
  switch (match.method) {
    case 'token':
      return c.method === Method.METHOD_TOKEN && Object.entries(match.metadata).every(([k, values]) => c.metadata[k] !== undefined && values.includes(c.metadata[k]));
    case 'oidc': {
      if (c.method !== Method.METHOD_OIDC) return false;
      if (match.provider !== null && c.metadata[`${PREFIX}.oidc.provider`] !== match.provider) return false;
      const claims = jsonObject(c.metadata[`${PREFIX}.claims`]);
      if (!claimsMatch(match.claims, claims)) return false;
      if (!match.emailDomains.length) return true;
      // An address the provider says it has not verified proves nothing about its domain.
      if (claims.email_verified === false || c.metadata[`${PREFIX}.oidc.email_verified`] === 'false') return false;
      const email = typeof claims.email === 'string' ? claims.email : (c.metadata[`${PREFIX}.oidc.email`] ?? '');
      const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
      return email.includes('@') && match.emailDomains.includes(domain);
    }
    case 'github': {
      if (c.method !== Method.METHOD_GITHUB) return false;
      const orgs = jsonValue(c.metadata[`${PREFIX}.github.organizations`]);
      const org = Array.isArray(orgs) ? orgs.find((o) => typeof o === 'string' && o.toLowerCase() === match.organization.toLowerCase()) : undefined;
      if (org === undefined) return false;
      if (!match.teams.length) return true;
      const teams = jsonObject(c.metadata[`${PREFIX}.github.teams`]);
      const entry = Object.entries(teams).find(([o]) => o.toLowerCase() === match.organization.toLowerCase())?.[1];
      return Array.isArray(entry) && entry.some((slug) => match.teams.includes(String(slug).toLowerCase()));
    }
    case 'kubernetes':
      return (
        c.method === Method.METHOD_KUBERNETES &&
        c.metadata[`${PREFIX}.k8s.namespace`] === match.namespace &&
        (!match.serviceAccounts.length || match.serviceAccounts.includes(c.metadata[`${PREFIX}.k8s.serviceaccount.name`] ?? ''))
      );
    case 'jwt':
      return c.method === Method.METHOD_JWT && claimsMatch(match.claims, c.claims ?? {});
  }
}

const SPACE_SEPARATED = new Set(['scope', 'scp']);

/**
 * Every named claim has one of its values: a scalar claim equal to one, or a list claim holding one (`scope` and
 * `scp` are read as the space-separated lists they are).
 */
function claimsMatch(wanted: Record<string, readonly string[]>, claims: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(wanted).every(([name, values]) => {
    const claim = claimAt(claims, name);
    // OAuth 2's `scope` (and Azure's `scp`) is one space-separated string of scopes.
    const held = Array.isArray(claim) ? claim : SPACE_SEPARATED.has(name) && typeof claim === 'string' ? claim.split(' ').filter(Boolean) : [claim];
    return held.some((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && values.includes(String(v)));
  });
}

/** A claim by name, or by a dotted path into nested objects (`realm_access.roles`) when no claim has the name. */
function claimAt(claims: Readonly<Record<string, unknown>>, name: string): unknown {
  if (name in claims) return claims[name];
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function jsonValue(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function jsonObject(text: string | undefined): Record<string, unknown> {
  const v = jsonValue(text);
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * `flagpole policy [FILE] [--method M] [--metadata KEY=VALUE …] [--claims JSON] [--namespace NS …]` (also
 * `flagpole validate --policy FILE …`): checks a policy
 * file (default: `authorization.local.policy.path`) without a server, and with a credential described on the command
 * line prints the roles it would hold and what it could do — outside namespaces and in each `--namespace`. A problem
 * in the file is reported naming its place (exit 1); a bad command line exits 2.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { InvalidError } from '../common/errors';
import type { FlagpoleConfig } from '../config/config.types';
import { UsageError } from '../common/usage-error';
import { Method } from '../wire';
import { rolesOf, type CredentialFacts } from './bindings';
import { grantOf } from './grant';
import { parsePolicy, PolicyError, type Policy } from './policy';

const METHODS: Record<string, Method> = {
  token: Method.METHOD_TOKEN, oidc: Method.METHOD_OIDC, github: Method.METHOD_GITHUB, kubernetes: Method.METHOD_KUBERNETES, jwt: Method.METHOD_JWT,
};

const USAGE = 'usage: flagpole policy [FILE] [--method token|oidc|github|kubernetes|jwt] [--metadata KEY=VALUE]... [--claims JSON] [--namespace NS]...';

export function runPolicyCommand(args: readonly string[], config: FlagpoleConfig, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): void {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        method: { type: 'string' },
        metadata: { type: 'string', multiple: true },
        claims: { type: 'string' },
        namespace: { type: 'string', multiple: true },
        // `flagpole validate --policy FILE …` is the same command.
        policy: { type: 'string' },
        config: { type: 'string' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const files = [...positionals, ...(values.policy !== undefined ? [values.policy] : [])];
  if (files.length > 1) throw new UsageError(`one policy file at most\n${USAGE}`);
  const path = files[0] ?? config.authorization.local.policy.path;
  if (!path) throw new UsageError(`name the policy file (or set authorization.local.policy.path)\n${USAGE}`);
  const policy = readPolicyFile(path);
  out(`${path}: no problem found: ${policy.roles.size} roles (${[...policy.roles.keys()].join(', ')}), ${policy.bindings.length} bindings, default role ${policy.defaultRole ?? 'none'}`);
  if (values.method === undefined) {
    if (values.metadata || values.claims || values.namespace) throw new UsageError(`--metadata, --claims and --namespace describe a credential: add --method\n${USAGE}`);
    return;
  }
  describeCredential(policy, credentialOf(values), values.namespace ?? [], out);
}

function readPolicyFile(path: string): Policy {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InvalidError(`${path}: ${(e as Error).message}`);
  }
  try {
    return parsePolicy(text, path);
  } catch (e) {
    throw e instanceof PolicyError ? new InvalidError(e.message) : e;
  }
}

function credentialOf(values: { method?: string; metadata?: string[]; claims?: string }): CredentialFacts {
  const method = METHODS[values.method ?? ''];
  if (method === undefined) throw new UsageError(`--method must be one of ${Object.keys(METHODS).join(', ')}\n${USAGE}`);
  const metadata: Record<string, string> = {};
  for (const pair of values.metadata ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--metadata takes KEY=VALUE, got ${JSON.stringify(pair)}\n${USAGE}`);
    metadata[pair.slice(0, at)] = pair.slice(at + 1);
  }
  let claims: Record<string, unknown> | undefined;
  if (values.claims !== undefined) {
    try {
      claims = JSON.parse(values.claims) as Record<string, unknown>;
    } catch {
      claims = undefined;
    }
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) throw new UsageError(`--claims takes a JSON object\n${USAGE}`);
    // OIDC keeps the ID token's claims in its metadata; a JWT's come with it.
    if (method === Method.METHOD_OIDC) metadata['io.flagpole.auth.claims'] = JSON.stringify(claims);
  }
  return { method, metadata, ...(method === Method.METHOD_JWT && claims ? { claims } : {}) };
}

function describeCredential(policy: Policy, credential: CredentialFacts, namespaces: readonly string[], out: (line: string) => void): void {
  const roles = rolesOf(policy, credential);
  out(`roles: ${roles.join(', ') || 'none'}`);
  const grant = grantOf(policy, roles);
  const show = (where: string, namespace: string | null) => {
    const allowed = Object.entries(grant.summary(namespace));
    out(`${where}: ${allowed.length ? allowed.map(([resource, actions]) => `${resource} ${actions.join('/')}`).join('; ') : 'nothing'}`);
  };
  show('outside namespaces', null);
  for (const ns of namespaces) show(`in namespace ${ns}`, ns);
  if (!namespaces.length) {
    for (const rule of grant.rules) {
      if (rule.namespaces) out(`  in namespaces ${rule.namespaces.join(', ')}: ${rule.resources.join(', ')} ${rule.actions.join('/')}`);
    }
  }
}

/**
 * `authentication.methods.kubernetes.allowed_service_accounts` — Flagpole's answer to flipt-io/flipt#2945.
 *
 * Each entry is `<namespace>/<service account>`; in either part `*` matches any run of characters (never a `/`):
 *   `prod/flag-reader`  one service account       `prod/*`  every service account of namespace prod
 *   `*\/flag-reader`     that name in any namespace  `team-*\/*` every namespace starting with `team-`
 * An empty list admits every service account the cluster vouches for, as Flipt does. The grammar lives here, beside
 * its validation, so that the config check and the Kubernetes method agree on what a pattern means.
 */

const PART = /^[a-z0-9.*-]+$/;

/** Why a pattern is invalid, or undefined when it is fine (used by the config validation). */
export function checkServiceAccountPattern(pattern: string): string | undefined {
  const parts = pattern.split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
    return `must be "<namespace>/<service account>" (either part may use *), got ${JSON.stringify(pattern)}`;
  }
  if (!parts.every((part) => PART.test(part))) {
    return `may contain only lower-case letters, digits, ".", "-" and "*", got ${JSON.stringify(pattern)}`;
  }
  return undefined;
}

/** A matcher for a validated allow-list: (namespace, name) → admitted. */
export function serviceAccountMatcher(patterns: readonly string[]): (namespace: string, name: string) => boolean {
  if (patterns.length === 0) return () => true;
  const regexes = patterns.map((pattern) => {
    const [namespace, name] = pattern.split('/').map(globToRegex);
    return { namespace, name };
  });
  return (namespace, name) => regexes.some((r) => r.namespace.test(namespace) && r.name.test(name));
}

export function isServiceAccountAllowed(patterns: readonly string[], namespace: string, name: string): boolean {
  return serviceAccountMatcher(patterns)(namespace, name);
}

function globToRegex(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'))
    .join('[^/]*');
  return new RegExp(`^${body}$`);
}

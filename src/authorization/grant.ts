/**
 * What a set of roles may do, as a CASL ability (@casl/ability): each permission rule becomes `can(actions,
 * resources, {namespace: {$regex}})`, its namespace globs compiled once (picomatch). A request is checked against a
 * subject `{namespace}`; a rule limited to namespaces never applies where the request names none (tokens, the
 * namespace list). Pure.
 */
import { createMongoAbility, subject, AbilityBuilder, type MongoAbility } from '@casl/ability';
import picomatch from 'picomatch';
import { ACTIONS, RESOURCES, type Action, type Policy, type PolicyRule, type Resource } from './policy';

/** Answers a grant remembers (a few per namespace the credential uses). */
const MAX_ANSWERS = 4096;

export interface Permission {
  resource: Resource;
  action: Action;
}

export class Grant {
  private readonly ability: MongoAbility;

  constructor(
    readonly roles: readonly string[],
    readonly rules: readonly PolicyRule[],
  ) {
    const { can, build } = new AbilityBuilder(createMongoAbility);
    for (const rule of rules) {
      if (rule.namespaces === null) can([...rule.actions], [...rule.resources]);
      else can([...rule.actions], [...rule.resources], { namespace: { $regex: namespacePattern(rule.namespaces) } });
    }
    this.ability = build();
  }

  /** Answers already given, by `action resource namespace`: a request's check is then one Map lookup. */
  private readonly answers = new Map<string, boolean>();

  /** May the holder do `action` on `resource` in `namespace` (null: where no namespace is named)? */
  allows(action: Action, resource: Resource, namespace: string | null): boolean {
    const key = namespace === null ? `${action} ${resource}` : `${action} ${resource} in ${namespace}`;
    let answer = this.answers.get(key);
    if (answer === undefined) {
      answer = this.ability.can(action, subject(resource, { namespace: namespace ?? undefined }));
      // Namespaces come from requests: a caller naming endless new ones must not grow this without bound.
      if (this.answers.size >= MAX_ANSWERS) this.answers.clear();
      this.answers.set(key, answer);
    }
    return answer;
  }

  /** What is allowed in `namespace` (null: outside any), resource by resource; resources with nothing are left out. */
  summary(namespace: string | null): Partial<Record<Resource, Action[]>> {
    const out: Partial<Record<Resource, Action[]>> = {};
    for (const resource of RESOURCES) {
      const actions = ACTIONS.filter((a) => this.allows(a, resource, namespace));
      if (actions.length) out[resource] = actions;
    }
    return out;
  }

  /**
   * True when this grant allows everything `other` does, confined to `namespace` when given (a namespaced token acts
   * only there). Judged rule by rule: each permission of `other` must be held without a namespace limit, or with one
   * of this grant's patterns matching each of `other`'s namespaces (a glob must be one of ours, word for word).
   */
  covers(other: Grant, namespace: string | null): boolean {
    for (const rule of other.rules) {
      // A namespaced token's rules for other namespaces give it nothing.
      if (namespace !== null && rule.namespaces !== null && !rule.namespaces.some((p) => picomatch.isMatch(namespace, p, { dot: true }))) continue;
      const places: Array<string | null | { glob: string }> = namespace !== null ? [namespace] : rule.namespaces === null ? [null] : rule.namespaces.map(asPlace);
      for (const resource of rule.resources) {
        for (const action of rule.actions) {
          for (const place of places) if (!this.holds(action, resource, place)) return false;
        }
      }
    }
    return true;
  }

  private holds(action: Action, resource: Resource, place: string | null | { glob: string }): boolean {
    if (place === null || typeof place === 'string') {
      if (place === null) return this.rules.some((r) => r.namespaces === null && r.actions.includes(action) && r.resources.includes(resource));
      return this.allows(action, resource, place);
    }
    return this.rules.some(
      (r) => r.actions.includes(action) && r.resources.includes(resource) && (r.namespaces === null || r.namespaces.includes(place.glob)),
    );
  }
}

function asPlace(pattern: string): string | { glob: string } {
  return picomatch.scan(pattern).isGlob ? { glob: pattern } : pattern;
}

/** One regular expression for a rule's namespace names and globs. */
function namespacePattern(patterns: readonly string[]): RegExp {
  const sources = patterns.map((p) => picomatch.makeRe(p, { dot: true }).source);
  return new RegExp(sources.map((s) => `(?:${s})`).join('|'));
}

/** The grant of a set of roles under `policy`. */
export function grantOf(policy: Policy, roles: readonly string[]): Grant {
  return new Grant(roles, roles.flatMap((r) => policy.roles.get(r) ?? []));
}

/**
 * What the lifecycle of a namespace's flags is judged by: `lifecycle.*` with the namespace's overrides applied
 * (`lifecycle.namespaces.<key>`), and whether evaluations are counted at all (the `unused` and `rolled_out` reasons
 * need analytics). Pure.
 */
import type { LifecycleConfig } from '../config/config.types';
import type { FlagKind } from '../wire';
import { TEMPORARY_KINDS, type TemporaryKind } from '../flags/lifecycle-metadata';

export interface LifecyclePolicy {
  defaultKind: FlagKind;
  /** ms; absent or 0: the kind is never stale by age (kill switches and permissions always). */
  lifetimes: Partial<Record<TemporaryKind, number>>;
  /** Whether evaluations are counted (analytics on): without them every flag not stale is `live`. */
  counted: boolean;
  /** ms; 0 = the reason is off. Both are 0 when evaluations are not counted. */
  unusedAfter: number;
  rolledOutAfter: number;
}

export function policyFor(config: LifecycleConfig, namespaceKey: string, usageCounted: boolean): LifecyclePolicy {
  // The configuration loader lower-cases map keys.
  const own = config.namespaces[namespaceKey.toLowerCase()];
  const lifetimes: Partial<Record<TemporaryKind, number>> = {};
  for (const kind of TEMPORARY_KINDS) lifetimes[kind] = own?.lifetimes[kind] || config.lifetimes[kind];
  return {
    defaultKind: own?.defaultKind || config.defaultKind,
    lifetimes,
    counted: usageCounted,
    unusedAfter: usageCounted ? config.unusedAfter : 0,
    rolledOutAfter: usageCounted ? config.rolledOutAfter : 0,
  };
}

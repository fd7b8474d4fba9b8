/**
 * The random writes of the delta-consistency suite (delta-consistency.e2e-spec.ts): a seeded generator, a model of
 * what each namespace holds (ids only — enough to aim the next write, never used as the expected answer), and a table
 * of write kinds, one entry per kind of management call. Each kind says how likely it is in the model's current state
 * and makes one call through the REST API; the model follows the calls that succeed. Some calls are meant to fail
 * (duplicate keys, a segment still in use, an operator the type does not allow, ids from another flag): a 4xx is an
 * answer like any other, only a 5xx stops the run. The truth the suite compares against is a fresh load of the same
 * database, not this model. Last, how two answers are compared: firstDifference names where they part.
 */
import type { HttpResult } from '../support/flagpole';
import type { Built, NamespaceSpec } from './fixtures';

// ---- a small seeded generator (mulberry32), so a printed seed replays the same choices ----------------------------

export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[this.int(items.length)];
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** Between min and max distinct items, in random order. */
  some<T>(items: readonly T[], min: number, max: number): T[] {
    return this.shuffle(items).slice(0, Math.min(items.length, min + this.int(max - min + 1)));
  }

  /** Picks by weight; entries of weight 0 never. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T | undefined {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of entries) {
      if (w <= 0) continue;
      if ((r -= w) < 0) return item;
    }
    return undefined;
  }
}

// ---- the model: ids and keys per namespace -----------------------------------------------------------------------

export type FlagType = 'VARIANT_FLAG_TYPE' | 'BOOLEAN_FLAG_TYPE';

export interface DistributionModel {
  id: string;
  variantId: string;
}

export interface RuleModel {
  id: string;
  segmentKeys: string[];
  distributions: DistributionModel[];
}

export interface RolloutModel {
  id: string;
  type: 'threshold' | 'segment';
  segmentKeys: string[];
}

export interface FlagModel {
  key: string;
  type: FlagType;
  name: string;
  description: string;
  enabled: boolean;
  /** '' when none. */
  defaultVariantId: string;
  variants: Array<{ id: string; key: string }>;
  /** Rules and rollouts of this flag; their order here does not matter (ranks are the server's business). */
  rules: RuleModel[];
  rollouts: RolloutModel[];
}

export interface NamespaceModel {
  key: string;
  flags: Map<string, FlagModel>;
  segments: Map<string, { key: string; constraints: string[] }>;
}

/** The model of a namespace made by fixtures' buildNamespace. */
export function modelOf(spec: NamespaceSpec, built: Built): NamespaceModel {
  const model: NamespaceModel = { key: spec.key, flags: new Map(), segments: new Map() };
  for (const s of spec.segments ?? []) model.segments.set(s.key, { key: s.key, constraints: [...built.constraints[s.key]] });
  for (const f of spec.flags ?? []) {
    const ids = built.variants[f.key];
    model.flags.set(f.key, {
      key: f.key,
      type: f.type ?? 'VARIANT_FLAG_TYPE',
      name: f.name ?? f.key,
      description: f.description ?? '',
      enabled: f.enabled ?? true,
      defaultVariantId: f.defaultVariant ? ids[f.defaultVariant] : '',
      variants: (f.variants ?? []).map((v) => ({ id: ids[v.key], key: v.key })),
      rules: (f.rules ?? []).map((r, i) => ({
        id: built.rules[f.key][i],
        segmentKeys: [...r.segments],
        distributions: (r.distributions ?? []).map(([variantKey], j) => ({ id: built.distributions[f.key][i][j], variantId: ids[variantKey] })),
      })),
      rollouts: (f.rollouts ?? []).map((r, i) => ({
        id: built.rollouts[f.key][i],
        type: r.threshold ? 'threshold' : 'segment',
        segmentKeys: r.segment?.segments ?? [],
      })),
    });
  }
  return model;
}

const flagsOf = (ns: NamespaceModel, type?: FlagType) => [...ns.flags.values()].filter((f) => !type || f.type === type);
const rulesOf = (ns: NamespaceModel) => flagsOf(ns).flatMap((flag) => flag.rules.map((rule) => ({ flag, rule })));
const rolloutsOf = (ns: NamespaceModel) => flagsOf(ns).flatMap((flag) => flag.rollouts.map((rollout) => ({ flag, rollout })));
const distributionsOf = (ns: NamespaceModel) =>
  rulesOf(ns).flatMap(({ flag, rule }) => rule.distributions.map((distribution) => ({ flag, rule, distribution })));
const constraintsOf = (ns: NamespaceModel) => [...ns.segments.values()].flatMap((segment) => segment.constraints.map((id) => ({ segment, id })));
const variantsOf = (ns: NamespaceModel) => flagsOf(ns).flatMap((flag) => flag.variants.map((variant) => ({ flag, variant })));

function segmentsInUse(ns: NamespaceModel): Set<string> {
  const used = new Set<string>();
  for (const f of ns.flags.values()) {
    for (const r of f.rules) r.segmentKeys.forEach((k) => used.add(k));
    for (const r of f.rollouts) r.segmentKeys.forEach((k) => used.add(k));
  }
  return used;
}

// ---- value pools: constraints and evaluation contexts draw from the same ones, so they match often -----------------

export const FLAG_KEYS = Array.from({ length: 24 }, (_, i) => `flag-${i}`);
export const SEGMENT_KEYS = Array.from({ length: 12 }, (_, i) => `seg-${i}`);
const VARIANT_KEYS = ['red', 'green', 'blue', 'cyan', 'magenta'];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'checkout', 'search', 'new UI', 'ünïcode ✓', 'a  b'];
const ATTACHMENTS = ['', '{"color":"red"}', '{ "n": 1, "list": [1, 2, 3] }', '"plain"', '42', '[true, false]', '{"nested":{"a":{"b":"c"}}}'];
const ROLLOUT_PERCENTS = [0, 100, 50, 33.3, 25.5, 10, 1, 99.9, 66.6, 12.345];

/** Context values per property; entity ids for ENTITY_ID constraints. */
export const CONTEXT_VALUES: Record<string, string[]> = {
  plan: ['free', 'pro', 'team', 'enterprise', 'pro-plus', ''],
  region: ['eu', 'us', 'apac', 'eu-west', ' eu '],
  email: ['ann@flipt.io', 'bob@example.com', ' cy@flipt.io ', 'dee@FLIPT.io'],
  age: ['0', '17', '18', '21', '65', '100', '-1', '2.5', '1e2', 'abc'],
  score: ['0', '10', '99.5', '100'],
  beta: ['true', 'false', '1', '0', 'TRUE', 'yes', ''],
  signup: ['2024-01-01T00:00:00Z', '2024-01-01', '2025-06-15T12:30:00+02:00', '2023-12-31T23:59:59Z', '2024-06-01T00:00:00.123Z', 'soon'],
};
export const ENTITY_IDS = [...Array.from({ length: 30 }, (_, i) => `user-${i}`), 'admin', 'user-1-beta', ''];

const STRING_OPERATORS = ['eq', 'neq', 'empty', 'notempty', 'prefix', 'suffix', 'isoneof', 'isnotoneof', 'contains', 'notcontains'];
const NUMBER_OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent', 'isoneof', 'isnotoneof'];
const BOOLEAN_OPERATORS = ['true', 'false', 'present', 'notpresent'];
const DATETIME_OPERATORS = ['eq', 'neq', 'lt', 'lte', 'gt', 'gte', 'present', 'notpresent'];
const ENTITY_ID_OPERATORS = ['eq', 'neq', 'isoneof', 'isnotoneof', 'contains', 'notcontains'];

const quoteList = (rng: Rng, values: string[]) => JSON.stringify(rng.some(values.filter(Boolean), 1, 3));

/** A constraint the API accepts (operators sometimes in capitals: they are stored lower-cased). */
export function randomConstraint(rng: Rng): Record<string, string> {
  const shout = (op: string) => (rng.chance(0.1) ? op.toUpperCase() : op);
  switch (rng.int(5)) {
    case 0: {
      const property = rng.pick(['plan', 'region', 'email'])!;
      const operator = rng.pick(STRING_OPERATORS)!;
      const pool = CONTEXT_VALUES[property].filter((v) => v.trim());
      const value: Record<string, () => string> = {
        prefix: () => rng.pick(['pro', 'eu', 'ann', 'free'])!,
        suffix: () => rng.pick(['@flipt.io', 'plus', '-west', 'o'])!,
        contains: () => rng.pick(['e', 'flip', 'pro', '@'])!,
        notcontains: () => rng.pick(['e', 'flip', 'pro', '@'])!,
        isoneof: () => quoteList(rng, pool),
        isnotoneof: () => quoteList(rng, pool),
        // a value sent with a no-value operator is cleared on save
        empty: () => (rng.chance(0.3) ? 'ignored' : ''),
        notempty: () => '',
      };
      return { type: 'STRING_COMPARISON_TYPE', property, operator: shout(operator), value: (value[operator] ?? (() => rng.pick(pool)!))() };
    }
    case 1: {
      const property = rng.pick(['age', 'score'])!;
      const operator = rng.pick(NUMBER_OPERATORS)!;
      const value = operator.startsWith('is')
        ? JSON.stringify(rng.some([0, 17, 18, 21, 2.5, 100], 1, 3))
        : operator.endsWith('present') ? '' : rng.pick(['18', '21', '0', '2.5', '100', '-1'])!;
      return { type: 'NUMBER_COMPARISON_TYPE', property, operator: shout(operator), value };
    }
    case 2:
      return { type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: shout(rng.pick(BOOLEAN_OPERATORS)!), value: '' };
    case 3: {
      const operator = rng.pick(DATETIME_OPERATORS)!;
      // date-only and offset forms are normalised on save
      const value = operator.endsWith('present') ? '' : rng.pick(['2024-01-01T00:00:00Z', '2024-01-01', '2025-06-15T10:30:00Z', '2024-06-01T02:00:00.5+02:00'])!;
      return { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: shout(operator), value };
    }
    default: {
      const operator = rng.pick(ENTITY_ID_OPERATORS)!;
      const value = operator.startsWith('is') ? quoteList(rng, ENTITY_IDS) : operator.includes('contains') ? rng.pick(['user-1', '-2', 'admin'])! : rng.pick(ENTITY_IDS.filter(Boolean))!;
      return { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'entityId', operator: shout(operator), value };
    }
  }
}

/** A constraint the API refuses with 400. */
function invalidConstraint(rng: Rng): Record<string, string> {
  return rng.pick([
    { type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'prefix', value: '1' },
    { type: 'ENTITY_ID_COMPARISON_TYPE', property: 'user', operator: 'eq', value: 'user-1' },
    { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: '' },
    { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'isoneof', value: '["2024-01-01"]' },
    { type: 'DATETIME_COMPARISON_TYPE', property: 'signup', operator: 'lt', value: 'tomorrow' },
    { type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'isoneof', value: 'pro' },
    { type: 'UNKNOWN_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'pro' },
  ])!;
}

/** An evaluation context: each property present or not, values from the pools above. */
export function randomContext(rng: Rng): Record<string, string> {
  const context: Record<string, string> = {};
  for (const [property, values] of Object.entries(CONTEXT_VALUES)) if (rng.chance(0.7)) context[property] = rng.pick(values)!;
  return context;
}

export function randomEntityId(rng: Rng): string {
  return rng.chance(0.85) ? rng.pick(ENTITY_IDS)! : `anon-${rng.int(100000)}`;
}

// ---- the write table -------------------------------------------------------------------------------------------

/** What a write kind gets: the generator, the model of the namespace it writes to, and one way to call the API. */
export interface Writer {
  rng: Rng;
  ns: NamespaceModel;
  /** The namespace's management path prefix, /api/v1/namespaces/{key}. */
  p: string;
  /** Makes the call (recorded in the run's log); `onOk` updates the model when it answers 200. */
  send(method: 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, onOk?: (res: any) => void): Promise<HttpResult>;
}

export interface WriteKind {
  name: string;
  /** How likely this kind is in the model's current state; 0 when it cannot be aimed at anything. */
  weight(ns: NamespaceModel): number;
  run(w: Writer): Promise<unknown>;
}

const name = (rng: Rng) => `${rng.pick(WORDS)} ${rng.int(100)}`;
const bodyOfFlag = (f: FlagModel) => ({ name: f.name, description: f.description, enabled: f.enabled, defaultVariantId: f.defaultVariantId });
const segmentBody = (rng: Rng, keys: string[], single: boolean, operator = rng.pick(['OR_SEGMENT_OPERATOR', 'AND_SEGMENT_OPERATOR'])!) =>
  single ? { segmentKey: keys[0] ?? '' } : { segmentKeys: keys, segmentOperator: operator };

/** Segment keys for a rule or rollout: 1–3 existing ones, now and then one that does not exist (404). */
function segmentKeysFor(w: Writer): string[] {
  const keys = w.rng.some([...w.ns.segments.keys()], 1, 3);
  if (w.rng.chance(0.04)) keys.push('no-such-segment');
  return keys;
}

/** The segment keys a rule or rollout answer names: one in `segmentKey`, two or more in `segmentKeys`. */
const keysIn = (o: { segmentKey?: string; segmentKeys?: string[] } | undefined): string[] => (o?.segmentKey ? [o.segmentKey] : (o?.segmentKeys ?? []));

function removeVariant(ns: NamespaceModel, variantId: string): void {
  for (const f of ns.flags.values()) {
    f.variants = f.variants.filter((v) => v.id !== variantId);
    if (f.defaultVariantId === variantId) f.defaultVariantId = '';
    // distributions go with their variant, whichever flag's rule holds them
    for (const r of f.rules) r.distributions = r.distributions.filter((d) => d.variantId !== variantId);
  }
}

function thresholdOrSegment(w: Writer, type: 'threshold' | 'segment', keys: string[]) {
  return type === 'threshold'
    ? { threshold: { percentage: w.rng.pick(ROLLOUT_PERCENTS)!, value: w.rng.chance(0.5) } }
    : { segment: { ...segmentBody(w.rng, keys, w.rng.chance(0.1)), value: w.rng.chance(0.5) } };
}

/** Reordering and deleting are alike for a flag's two ranked children, rules and rollouts. */
function reorderAndDelete(children: 'rules' | 'rollouts', child: 'rule' | 'rollout'): WriteKind[] {
  const all = (ns: NamespaceModel) => flagsOf(ns).flatMap((flag) => (flag[children] as Array<{ id: string }>).map((item) => ({ flag, item })));
  return [
    {
      // all of them in a new order; now and then only two (the others keep their rank)
      name: `${child}.reorder`,
      weight: (ns) => (flagsOf(ns).some((f) => f[children].length > 1) ? 2 : 0),
      run: (w) => {
        const flag = w.rng.pick(flagsOf(w.ns).filter((f) => f[children].length > 1))!;
        const ids = w.rng.shuffle(flag[children].map((c) => c.id));
        return w.send('PUT', `${w.p}/flags/${flag.key}/${children}/order`, { [`${child}Ids`]: w.rng.chance(0.12) ? ids.slice(0, 2) : ids });
      },
    },
    {
      name: `${child}.delete`,
      weight: (ns) => (all(ns).length > 25 ? 2.5 : all(ns).length ? 1.2 : 0),
      run: (w) => {
        const { flag, item } = w.rng.pick(all(w.ns))!;
        return w.send('DELETE', `${w.p}/flags/${flag.key}/${children}/${item.id}`, undefined, () => {
          const list = flag[children] as Array<{ id: string }>;
          list.splice(list.indexOf(item), 1);
        });
      },
    },
  ];
}

export const WRITES: WriteKind[] = [
  // -- flags
  {
    name: 'flag.create',
    weight: (ns) => (ns.flags.size < 10 ? 6 : ns.flags.size < 20 ? 2 : 0.3),
    run: (w) => {
      const free = FLAG_KEYS.filter((k) => !w.ns.flags.has(k));
      const key = (w.rng.chance(0.9) && w.rng.pick(free)) || w.rng.pick(FLAG_KEYS)!; // sometimes a duplicate: 400
      const flag: FlagModel = {
        key, type: w.rng.chance(0.35) ? 'BOOLEAN_FLAG_TYPE' : 'VARIANT_FLAG_TYPE', name: name(w.rng), description: name(w.rng),
        enabled: w.rng.chance(0.7), defaultVariantId: '', variants: [], rules: [], rollouts: [],
      };
      const body = { key, name: flag.name, description: flag.description, enabled: flag.enabled, type: flag.type };
      return w.send('POST', `${w.p}/flags`, body, () => w.ns.flags.set(key, flag));
    },
  },
  {
    name: 'flag.update',
    weight: (ns) => (ns.flags.size ? 4 : 0),
    run: (w) => {
      const flag = w.rng.pick(flagsOf(w.ns))!;
      const next = { ...flag };
      const what = w.rng.int(3);
      if (what === 0) next.enabled = !flag.enabled;
      if (what === 1) next.name = w.rng.chance(0.05) ? '' : name(w.rng); // an empty name: 400
      if (what === 2) next.description = w.rng.chance(0.3) ? '' : name(w.rng);
      return w.send('PUT', `${w.p}/flags/${flag.key}`, bodyOfFlag(next), () => Object.assign(flag, next));
    },
  },
  {
    // a boolean flag's `enabled` is the value it answers when no rollout matches
    name: 'flag.booleanDefault',
    weight: (ns) => (flagsOf(ns, 'BOOLEAN_FLAG_TYPE').length ? 3 : 0),
    run: (w) => {
      const flag = w.rng.pick(flagsOf(w.ns, 'BOOLEAN_FLAG_TYPE'))!;
      const enabled = !flag.enabled;
      return w.send('PUT', `${w.p}/flags/${flag.key}`, { ...bodyOfFlag(flag), enabled }, () => (flag.enabled = enabled));
    },
  },
  {
    name: 'flag.defaultVariant',
    weight: (ns) => (variantsOf(ns).length ? 2.5 : 0),
    run: (w) => {
      const flag = w.rng.pick(flagsOf(w.ns).filter((f) => f.variants.length))!;
      // its own variant, none, or (refused) another flag's
      const r = w.rng.next();
      const id = r < 0.7 ? w.rng.pick(flag.variants)!.id : r < 0.92 ? '' : (w.rng.pick(variantsOf(w.ns))?.variant.id ?? '');
      return w.send('PUT', `${w.p}/flags/${flag.key}`, { ...bodyOfFlag(flag), defaultVariantId: id }, () => (flag.defaultVariantId = id));
    },
  },
  {
    name: 'flag.delete',
    weight: (ns) => (ns.flags.size > 14 ? 2 : ns.flags.size > 3 ? 0.6 : 0),
    run: (w) => {
      const flag = w.rng.pick(flagsOf(w.ns))!;
      return w.send('DELETE', `${w.p}/flags/${flag.key}`, undefined, () => {
        for (const v of flag.variants) removeVariant(w.ns, v.id);
        w.ns.flags.delete(flag.key);
      });
    },
  },
  // -- variants
  {
    name: 'variant.create',
    weight: (ns) => (flagsOf(ns).some((f) => f.variants.length < 4) ? 3.5 : 0),
    run: (w) => {
      const flag = w.rng.pick(flagsOf(w.ns).filter((f) => f.variants.length < 4 && (f.type === 'VARIANT_FLAG_TYPE' || w.rng.chance(0.1))))
        ?? w.rng.pick(flagsOf(w.ns))!;
      const key = (w.rng.chance(0.92) && w.rng.pick(VARIANT_KEYS.filter((k) => !flag.variants.some((v) => v.key === k)))) || w.rng.pick(VARIANT_KEYS)!;
      const body = { key, name: name(w.rng), description: name(w.rng), attachment: w.rng.pick(ATTACHMENTS)! };
      return w.send('POST', `${w.p}/flags/${flag.key}/variants`, body, (res) => flag.variants.push({ id: res.id, key }));
    },
  },
  {
    name: 'variant.update',
    weight: (ns) => (variantsOf(ns).length ? 3 : 0),
    run: (w) => {
      const { flag, variant } = w.rng.pick(variantsOf(w.ns))!;
      const key = w.rng.chance(0.4) ? w.rng.pick(VARIANT_KEYS)! : variant.key; // a key its flag already has: 400
      const attachment = w.rng.chance(0.03) ? '{not json' : w.rng.pick(ATTACHMENTS)!;
      return w.send('PUT', `${w.p}/flags/${flag.key}/variants/${variant.id}`, { key, name: name(w.rng), attachment }, () => (variant.key = key));
    },
  },
  {
    name: 'variant.delete',
    weight: (ns) => (variantsOf(ns).length > 6 ? 1.5 : 0.5),
    run: (w) => {
      const picked = w.rng.pick(variantsOf(w.ns));
      if (!picked) return w.send('DELETE', `${w.p}/flags/nope/variants/nope`, undefined);
      return w.send('DELETE', `${w.p}/flags/${picked.flag.key}/variants/${picked.variant.id}`, undefined, () => removeVariant(w.ns, picked.variant.id));
    },
  },
  // -- segments and constraints
  {
    name: 'segment.create',
    weight: (ns) => (ns.segments.size < 5 ? 5 : ns.segments.size < 10 ? 2 : 0.5),
    run: (w) => {
      const key = (w.rng.chance(0.9) && w.rng.pick(SEGMENT_KEYS.filter((k) => !w.ns.segments.has(k)))) || w.rng.pick(SEGMENT_KEYS)!;
      const body = { key, name: name(w.rng), description: name(w.rng), matchType: w.rng.pick(['ALL_MATCH_TYPE', 'ANY_MATCH_TYPE']) };
      return w.send('POST', `${w.p}/segments`, body, () => w.ns.segments.set(key, { key, constraints: [] }));
    },
  },
  {
    name: 'segment.update',
    weight: (ns) => (ns.segments.size ? 3 : 0),
    run: (w) => {
      const key = w.rng.pick([...w.ns.segments.keys()])!;
      const body = { name: name(w.rng), description: w.rng.chance(0.5) ? '' : name(w.rng), matchType: w.rng.pick(['ALL_MATCH_TYPE', 'ANY_MATCH_TYPE']) };
      return w.send('PUT', `${w.p}/segments/${key}`, body);
    },
  },
  {
    // mostly unused ones (deleted); now and then one still in use (400 "is in use")
    name: 'segment.delete',
    weight: (ns) => (ns.segments.size <= 3 ? 0 : ns.segments.size > segmentsInUse(ns).size ? 3 : 0.3),
    run: (w) => {
      const used = segmentsInUse(w.ns);
      const keys = [...w.ns.segments.keys()];
      const key = (w.rng.chance(0.8) && w.rng.pick(keys.filter((k) => !used.has(k)))) || w.rng.pick(keys)!;
      return w.send('DELETE', `${w.p}/segments/${key}`, undefined, () => w.ns.segments.delete(key));
    },
  },
  {
    name: 'constraint.create',
    weight: (ns) => (ns.segments.size ? 4 : 0),
    run: (w) => {
      const segment = w.rng.pick([...w.ns.segments.values()])!;
      return w.send('POST', `${w.p}/segments/${segment.key}/constraints`, randomConstraint(w.rng), (res) => segment.constraints.push(res.id));
    },
  },
  {
    name: 'constraint.update',
    weight: (ns) => (constraintsOf(ns).length ? 3.5 : 0),
    run: (w) => {
      const { segment, id } = w.rng.pick(constraintsOf(w.ns))!;
      return w.send('PUT', `${w.p}/segments/${segment.key}/constraints/${id}`, randomConstraint(w.rng));
    },
  },
  {
    name: 'constraint.delete',
    weight: (ns) => (constraintsOf(ns).length > 10 ? 2.5 : 0.8),
    run: (w) => {
      const picked = w.rng.pick(constraintsOf(w.ns));
      if (!picked) return w.send('DELETE', `${w.p}/segments/nope/constraints/nope`, undefined);
      return w.send('DELETE', `${w.p}/segments/${picked.segment.key}/constraints/${picked.id}`, undefined, () => {
        picked.segment.constraints = picked.segment.constraints.filter((c) => c !== picked.id);
      });
    },
  },
  {
    name: 'constraint.invalid',
    weight: (ns) => (ns.segments.size ? 0.5 : 0),
    run: (w) => {
      const { segment, id } = w.rng.pick(constraintsOf(w.ns)) ?? { segment: w.rng.pick([...w.ns.segments.values()])!, id: '' };
      return id && w.rng.chance(0.5)
        ? w.send('PUT', `${w.p}/segments/${segment.key}/constraints/${id}`, invalidConstraint(w.rng))
        : w.send('POST', `${w.p}/segments/${segment.key}/constraints`, invalidConstraint(w.rng));
    },
  },
  // -- rules and distributions (variant flags; now and then a boolean flag, which stores but never uses them)
  {
    name: 'rule.create',
    weight: (ns) => (ns.segments.size && ns.flags.size ? 4 : 0),
    run: (w) => {
      const flag = (w.rng.chance(0.9) && w.rng.pick(flagsOf(w.ns, 'VARIANT_FLAG_TYPE').filter((f) => f.rules.length < 5))) || w.rng.pick(flagsOf(w.ns))!;
      const keys = segmentKeysFor(w);
      // usually last; sometimes a rank another rule already has (allowed for rules)
      const rank = w.rng.chance(0.85) ? flag.rules.length + 1 : 1 + w.rng.int(flag.rules.length + 1);
      return w.send('POST', `${w.p}/flags/${flag.key}/rules`, { ...segmentBody(w.rng, keys, w.rng.chance(0.1)), rank }, (res) =>
        flag.rules.push({ id: res.id, segmentKeys: keysIn(res), distributions: [] }),
      );
    },
  },
  {
    name: 'rule.update',
    weight: (ns) => (rulesOf(ns).length ? 3 : 0),
    run: (w) => {
      const { flag, rule } = w.rng.pick(rulesOf(w.ns))!;
      const keys = segmentKeysFor(w);
      return w.send('PUT', `${w.p}/flags/${flag.key}/rules/${rule.id}`, segmentBody(w.rng, keys, w.rng.chance(0.1)), (res) => {
        rule.segmentKeys = keysIn(res);
      });
    },
  },
  ...reorderAndDelete('rules', 'rule'),
  {
    name: 'distribution.create',
    weight: (ns) => (rulesOf(ns).some(({ flag }) => flag.variants.length) ? 4 : 0),
    run: (w) => {
      const { flag, rule } = w.rng.pick(rulesOf(w.ns).filter(({ flag }) => flag.variants.length))!;
      const variantId = w.rng.pick(flag.variants)!.id;
      return w.send('POST', `${w.p}/flags/${flag.key}/rules/${rule.id}/distributions`, { variantId, rollout: w.rng.pick(ROLLOUT_PERCENTS) }, (res) =>
        rule.distributions.push({ id: res.id, variantId }),
      );
    },
  },
  {
    name: 'distribution.update',
    weight: (ns) => (distributionsOf(ns).length ? 3 : 0),
    run: (w) => {
      const { flag, rule, distribution } = w.rng.pick(distributionsOf(w.ns))!;
      const variantId = w.rng.pick(flag.variants)?.id ?? distribution.variantId;
      const rollout = w.rng.chance(0.02) ? 101 : w.rng.pick(ROLLOUT_PERCENTS); // over 100: 400
      return w.send('PUT', `${w.p}/flags/${flag.key}/rules/${rule.id}/distributions/${distribution.id}`, { variantId, rollout }, () => {
        distribution.variantId = variantId;
      });
    },
  },
  {
    name: 'distribution.delete',
    weight: (ns) => (distributionsOf(ns).length > 20 ? 2.5 : distributionsOf(ns).length ? 1 : 0),
    run: (w) => {
      const { flag, rule, distribution } = w.rng.pick(distributionsOf(w.ns))!;
      const path = `${w.p}/flags/${flag.key}/rules/${rule.id}/distributions/${distribution.id}?variantId=${distribution.variantId}`;
      return w.send('DELETE', path, undefined, () => (rule.distributions = rule.distributions.filter((d) => d !== distribution)));
    },
  },
  // -- rollouts (boolean flags; now and then a variant flag, which stores but never uses them)
  {
    name: 'rollout.create',
    weight: (ns) => (ns.flags.size ? 4 : 0),
    run: (w) => {
      const flag = (w.rng.chance(0.9) && w.rng.pick(flagsOf(w.ns, 'BOOLEAN_FLAG_TYPE').filter((f) => f.rollouts.length < 5))) || w.rng.pick(flagsOf(w.ns))!;
      const type = w.rng.chance(0.5) || !w.ns.segments.size ? 'threshold' : 'segment';
      const keys = type === 'segment' ? segmentKeysFor(w) : [];
      // ranks are unique per flag: an existing one is refused (400)
      const rank = w.rng.chance(0.95) ? flag.rollouts.length + 1 : 1;
      const body = { rank, description: name(w.rng), ...thresholdOrSegment(w, type, keys) };
      return w.send('POST', `${w.p}/flags/${flag.key}/rollouts`, body, (res) =>
        flag.rollouts.push({ id: res.id, type, segmentKeys: keysIn(res.segment) }),
      );
    },
  },
  {
    name: 'rollout.update',
    weight: (ns) => (rolloutsOf(ns).length ? 3 : 0),
    run: (w) => {
      const { flag, rollout } = w.rng.pick(rolloutsOf(w.ns))!;
      // the same type, or (refused: a rollout keeps its type) the other one
      const type = w.rng.chance(0.95) || !w.ns.segments.size ? rollout.type : rollout.type === 'threshold' ? 'segment' : 'threshold';
      const keys = type === 'segment' ? segmentKeysFor(w) : [];
      const body = { description: name(w.rng), ...thresholdOrSegment(w, type, keys) };
      return w.send('PUT', `${w.p}/flags/${flag.key}/rollouts/${rollout.id}`, body, (res) => {
        rollout.segmentKeys = keysIn(res.segment);
      });
    },
  },
  ...reorderAndDelete('rollouts', 'rollout'),
  // -- writes whose path names one flag while the row belongs to another: the API allows them (as Flipt does), and
  //    a delta must follow the row, not the path
  {
    name: 'cross.ruleUpdateViaOtherFlag',
    weight: (ns) => (rulesOf(ns).length && ns.flags.size > 1 ? 0.4 : 0),
    run: (w) => {
      const { flag, rule } = w.rng.pick(rulesOf(w.ns))!;
      const other = w.rng.pick(flagsOf(w.ns).filter((f) => f !== flag))!;
      const keys = segmentKeysFor(w);
      return w.send('PUT', `${w.p}/flags/${other.key}/rules/${rule.id}`, segmentBody(w.rng, keys, false), (res) => {
        rule.segmentKeys = keysIn(res);
      });
    },
  },
  {
    name: 'cross.distributionOnOtherFlagsRule',
    weight: (ns) => (rulesOf(ns).length && variantsOf(ns).length && ns.flags.size > 1 ? 0.4 : 0),
    run: (w) => {
      const { flag, rule } = w.rng.pick(rulesOf(w.ns))!;
      const other = w.rng.pick(flagsOf(w.ns).filter((f) => f !== flag))!;
      // the variant of the rule's own flag, or of any flag (a variant of another flag is stored but never served)
      const variantId = (w.rng.chance(0.5) && w.rng.pick(flag.variants)?.id) || w.rng.pick(variantsOf(w.ns))!.variant.id;
      return w.send('POST', `${w.p}/flags/${other.key}/rules/${rule.id}/distributions`, { variantId, rollout: w.rng.pick(ROLLOUT_PERCENTS) }, (res) =>
        rule.distributions.push({ id: res.id, variantId }),
      );
    },
  },
  {
    name: 'cross.rolloutUpdateViaOtherFlag',
    weight: (ns) => (rolloutsOf(ns).length && ns.flags.size > 1 ? 0.4 : 0),
    run: (w) => {
      const { flag, rollout } = w.rng.pick(rolloutsOf(w.ns))!;
      const other = w.rng.pick(flagsOf(w.ns).filter((f) => f !== flag))!;
      const keys = rollout.type === 'segment' ? segmentKeysFor(w) : [];
      const body = { description: name(w.rng), ...thresholdOrSegment(w, rollout.type, keys) };
      return w.send('PUT', `${w.p}/flags/${other.key}/rollouts/${rollout.id}`, body, (res) => {
        rollout.segmentKeys = keysIn(res.segment);
      });
    },
  },
  // -- the namespace itself, and ids that do not exist
  {
    name: 'namespace.update',
    weight: () => 0.3,
    run: (w) => w.send('PUT', w.p, { name: name(w.rng), description: name(w.rng) }),
  },
  {
    name: 'missing',
    weight: () => 0.4,
    run: (w) => {
      const flag = w.rng.pick(flagsOf(w.ns))?.key ?? 'nope';
      const missing: Array<[method: 'PUT' | 'DELETE' | 'POST', path: string, body?: unknown]> = [
        ['PUT', `${w.p}/flags/nope`, { name: 'x', enabled: true }],
        ['PUT', `${w.p}/flags/${flag}/variants/00000000-0000-4000-8000-000000000000`, { key: 'x' }],
        ['PUT', `${w.p}/flags/${flag}/rules/00000000-0000-4000-8000-000000000000`, { segmentKeys: [...w.ns.segments.keys()].slice(0, 1) }],
        ['POST', `${w.p}/flags/${flag}/rollouts`, { rank: 99, segment: { segmentKey: 'nope', value: true } }],
        ['PUT', `${w.p}/segments/nope`, { name: 'x' }],
        ['DELETE', `${w.p}/flags/${flag}/rules/00000000-0000-4000-8000-000000000000`],
      ];
      const [method, path, body] = w.rng.pick(missing)!;
      return w.send(method, path, body);
    },
  },
];

/** One write kind, chosen by weight for the namespace's current state. */
export function chooseWrite(rng: Rng, ns: NamespaceModel): WriteKind {
  return rng.weighted(WRITES.map((k) => [k, k.weight(ns)] as const))!;
}

// ---- comparing answers -------------------------------------------------------------------------------------------

/** Who is evaluated: asked of both apps, for every flag. */
export interface Entity {
  entityId: string;
  context: Record<string, string>;
}

/** The answer without the fields that differ between any two calls (request id, time, duration). */
export const stripVolatile = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(stripVolatile);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k !== 'requestId' && k !== 'timestamp' && k !== 'requestDurationMillis') out[k] = stripVolatile(v);
    }
    return out;
  }
  return value;
};

/**
 * The first place where two JSON values differ, as `path: A=… B=…`, or null when they are deep-equal. Array elements
 * are named by their key or id when they have one (`flags[3 key=flag-7].rules[0 id=…]`).
 */
export function firstDifference(a: unknown, b: unknown, path = '$'): string | null {
  if (Object.is(a, b)) return null;
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b) || typeof a !== 'object' || a === null) return `${path}: A=${show(a)} B=${show(b)}`;
  if (Array.isArray(a)) {
    const bs = b as unknown[];
    // Elements with names (flags, segments, rules, constraints): a different order or membership says it plainly.
    const [namesA, namesB] = [a.map(elementName), bs.map(elementName)];
    if (![...namesA, ...namesB].includes(undefined) && namesA.join('\n') !== namesB.join('\n')) {
      return `${path}: different elements or order; A=${show(namesA)} B=${show(namesB)}`;
    }
    for (let i = 0; i < Math.max(a.length, bs.length); i++) {
      const at = `${path}[${i}${label(a[i] ?? bs[i])}]`;
      if (i >= a.length) return `${at}: missing in A (A has ${a.length} elements, B ${bs.length}); B=${show(bs[i])}`;
      if (i >= bs.length) return `${at}: missing in B (A has ${a.length} elements, B ${bs.length}); A=${show(a[i])}`;
      const d = firstDifference(a[i], bs[i], at);
      if (d) return d;
    }
    return null;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of new Set([...Object.keys(ao), ...Object.keys(bo)])) {
    if (!(key in bo)) return `${path}.${key}: only in A: ${show(ao[key])}`;
    if (!(key in ao)) return `${path}.${key}: only in B: ${show(bo[key])}`;
    const d = firstDifference(ao[key], bo[key], `${path}.${key}`);
    if (d) return d;
  }
  return null;
}

/** `key=…` or `id=…` of an array element that has one. */
function elementName(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.key === 'string') return `key=${o.key}`;
  if (typeof o.id === 'string' && o.id) return `id=${o.id}`;
  return undefined;
}

function label(v: unknown): string {
  const n = elementName(v);
  return n ? ` ${n}` : '';
}

function show(v: unknown): string {
  const s = v === undefined ? 'undefined' : JSON.stringify(v);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

/**
 * Terse builders for NamespaceSource rows, used by the core's unit tests. Defaults are the values a freshly
 * created object would have, so that each test spells out only what it is about.
 */
import type {
  NamespaceSource,
  SourceConstraint,
  SourceDistribution,
  SourceFlag,
  SourceRollout,
  SourceRule,
  SourceSegment,
  SourceVariant,
} from '../source';

let counter = 0;
const nextId = (prefix: string): string => `${prefix}-${++counter}`;

export const STRING = 1;
export const NUMBER = 2;
export const BOOLEAN = 3;
export const DATETIME = 4;
export const ENTITY_ID = 5;

export function constraint(type: number, property: string, operator: string, value = ''): SourceConstraint {
  return { id: nextId('c'), type, property, operator, value };
}

export function segment(key: string, constraints: SourceConstraint[] = [], matchType = 0): SourceSegment {
  return { key, name: key.toUpperCase(), description: '', matchType, constraints };
}

/** A segment matching `property == value` (string), the shape of Flipt's readonly test data. */
export function eqSegment(key: string, property: string, value: string): SourceSegment {
  return segment(key, [constraint(STRING, property, 'eq', value)]);
}

export function variant(key: string, attachment = ''): SourceVariant {
  return { id: `v-${key}`, key, attachment };
}

export function dist(variantKey: string, rollout: number): SourceDistribution {
  return { id: nextId('d'), variantId: `v-${variantKey}`, rollout };
}

export function rule(
  rank: number,
  segmentKeys: string[],
  distributions: SourceDistribution[] = [],
  segmentOperator = 0,
): SourceRule {
  return { id: nextId('r'), rank, segmentKeys, segmentOperator, distributions };
}

export function thresholdRollout(rank: number, percentage: number, value: boolean): SourceRollout {
  return { id: nextId('ro'), rank, type: 2, description: '', threshold: { percentage, value } };
}

export function segmentRollout(rank: number, segmentKeys: string[], value: boolean, segmentOperator = 0): SourceRollout {
  return { id: nextId('ro'), rank, type: 1, description: '', segment: { segmentKeys, segmentOperator, value } };
}

const CREATED = '2025-01-01T00:00:00Z';

export function variantFlag(key: string, fields: Partial<SourceFlag> = {}): SourceFlag {
  return {
    key,
    name: key,
    description: '',
    enabled: true,
    type: 0,
    createdAt: CREATED,
    updatedAt: CREATED,
    defaultVariantId: null,
    variants: [],
    rules: [],
    rollouts: [],
    ...fields,
  };
}

export function booleanFlag(key: string, fields: Partial<SourceFlag> = {}): SourceFlag {
  return variantFlag(key, { type: 1, ...fields });
}

export function namespace(key: string, flags: SourceFlag[], segments: SourceSegment[] = []): NamespaceSource {
  return { key, version: 'v1', flags, segments };
}

/** The namespace behind vectors/golden.json and vectors/snapshot.json, as the storage loader would hand it over. */
export function goldenSource(): NamespaceSource {
  return {
    key: 'golden',
    version: 'version-1',
    segments: [
      {
        key: 'pro-users',
        name: 'Pro users',
        description: '',
        matchType: 0,
        constraints: [{ id: 'c-1', type: STRING, property: 'plan', operator: 'eq', value: 'pro' }],
      },
    ],
    flags: [
      {
        key: 'bool-threshold-50',
        name: 'Boolean threshold 50%',
        description: 'boolean flag, one threshold rollout at 50% -> true',
        enabled: false,
        type: 1,
        createdAt: CREATED,
        updatedAt: CREATED,
        defaultVariantId: null,
        variants: [],
        rules: [],
        rollouts: [{ id: 'ro-1', rank: 1, type: 2, description: '', threshold: { percentage: 50, value: true } }],
      },
      {
        key: 'variant-5050',
        name: 'Variant 50/50',
        description: 'variant flag, one rule on segment pro-users, two distributions 50/50',
        enabled: true,
        type: 0,
        createdAt: CREATED,
        updatedAt: CREATED,
        defaultVariantId: null,
        variants: [
          { id: 'v-1', key: 'control', attachment: '' },
          { id: 'v-2', key: 'treatment', attachment: '{"color":"blue"}' },
        ],
        rules: [
          {
            id: 'rule-1',
            rank: 1,
            segmentKeys: ['pro-users'],
            segmentOperator: 0,
            distributions: [
              { id: 'd-1', variantId: 'v-1', rollout: 50 },
              { id: 'd-2', variantId: 'v-2', rollout: 50 },
            ],
          },
        ],
        rollouts: [],
      },
    ],
  };
}

/**
 * Reads one namespace's evaluation state from storage into the core's plain NamespaceSource: a fixed handful of
 * queries per namespace (never one per flag), shaped exactly as compileSnapshot expects.
 */
import { EntityManager } from '@mikro-orm/core';
import { formatTimestamp } from '../common/timestamps';
import type { NamespaceSource, SourceFlag, SourceRollout, SourceRule, SourceSegment } from '../core';
import { Flag } from '../flags/flag.entity';
import { Namespace } from '../namespaces/namespace.entity';
import { Rollout } from '../rollouts/rollout.entity';
import { Rule } from '../rules/rule.entity';
import { Segment } from '../segments/segment.entity';
import { RANK_ORDER } from '../storage/ranks';

/** Null when the namespace does not exist. */
export async function loadNamespaceSource(em: EntityManager, namespaceKey: string): Promise<NamespaceSource | null> {
  const ns = await em.findOne(Namespace, { key: namespaceKey });
  if (!ns) return null;
  const [flags, segments, rules, rollouts] = await Promise.all([
    em.find(Flag, { namespace: namespaceKey }, { populate: ['variants'], orderBy: { createdAt: 'asc', key: 'asc' } }),
    em.find(Segment, { namespace: namespaceKey }, { populate: ['constraints'], orderBy: { createdAt: 'asc', key: 'asc' } }),
    em.find(Rule, { flag: { namespace: namespaceKey } }, {
      populate: ['segments.segment', 'distributions.variant'],
      orderBy: RANK_ORDER,
      populateOrderBy: { segments: { position: 'asc' }, distributions: { createdAt: 'asc', id: 'asc' } },
    }),
    em.find(Rollout, { flag: { namespace: namespaceKey } }, {
      populate: ['segments.segment'],
      orderBy: RANK_ORDER,
      populateOrderBy: { segments: { position: 'asc' } },
    }),
  ]);

  const rulesByFlag = groupBy(rules.map(toSourceRule), rules.map((r) => r.flag.id));
  const rolloutsByFlag = groupBy(rollouts.map(toSourceRollout), rollouts.map((r) => r.flag.id));
  return {
    key: namespaceKey,
    version: versionOf(ns),
    flags: flags.map((f) => toSourceFlag(f, rulesByFlag.get(f.id) ?? [], rolloutsByFlag.get(f.id) ?? [])),
    segments: segments.map(toSourceSegment),
  };
}

/** Changes with every write to the namespace (Database.write bumps stateModifiedAt). */
export function versionOf(ns: Namespace): string {
  return String((ns.stateModifiedAt ?? ns.updatedAt).getTime());
}

function toSourceFlag(f: Flag, rules: SourceRule[], rollouts: SourceRollout[]): SourceFlag {
  return {
    key: f.key,
    name: f.name,
    description: f.description,
    enabled: f.enabled,
    type: f.type,
    createdAt: formatTimestamp(f.createdAt),
    updatedAt: formatTimestamp(f.updatedAt),
    defaultVariantId: f.defaultVariantId,
    variants: f.variants.getItems().map((v) => ({ id: v.id, key: v.key, attachment: v.attachment ?? '' })),
    rules,
    rollouts,
  };
}

function toSourceRule(r: Rule): SourceRule {
  return {
    id: r.id,
    rank: r.rank,
    segmentKeys: r.segments.getItems().map((rs) => rs.segment.key),
    segmentOperator: r.segmentOperator,
    distributions: r.distributions.getItems().map((d) => ({ id: d.id, variantId: d.variant.id, rollout: d.rollout })),
  };
}

function toSourceRollout(r: Rollout): SourceRollout {
  const base = { id: r.id, rank: r.rank, type: r.type, description: r.description };
  if (r.percentage !== null && r.type === 2) return { ...base, threshold: { percentage: r.percentage, value: r.value } };
  return {
    ...base,
    segment: { segmentKeys: r.segments.getItems().map((rs) => rs.segment.key), segmentOperator: r.segmentOperator, value: r.value },
  };
}

function toSourceSegment(s: Segment): SourceSegment {
  return {
    key: s.key,
    name: s.name,
    description: s.description,
    matchType: s.matchType,
    constraints: s.constraints.getItems().map((c) => ({ id: c.id, type: c.type, property: c.property, operator: c.operator, value: c.value })),
  };
}

function groupBy<T>(items: T[], keys: string[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  items.forEach((item, i) => {
    const list = out.get(keys[i]);
    if (list) list.push(item);
    else out.set(keys[i], [item]);
  });
  return out;
}

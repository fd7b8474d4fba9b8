/**
 * "Copy to namespace" as a flags-as-code document (Flipt's format, docs/flags-as-code.md), imported into the target
 * namespace in one call: the server checks the whole document first and writes it in one transaction, so a copy is
 * all there or not at all, and a key the target already has is refused with the server's own message.
 *
 * A flag goes with its variants (in order: the order decides bucketing), its default variant and metadata; with
 * `withTargeting`, also its rules or rollouts and the segments they name, which the import then skips where the
 * target already has a segment of that key (the copied rules use the target's segment of that key).
 */
import type { Flag, Rollout, Rule, Segment } from '../api/types';

const VERSION = '1.4';

export function segmentDocument(namespaceKey: string, segments: Segment[]) {
  return {
    version: VERSION,
    namespace: namespaceKey,
    segments: segments.map((s) => ({
      key: s.key,
      name: s.name,
      description: s.description,
      match_type: s.matchType,
      constraints: s.constraints.map((c) => ({ type: c.type, property: c.property, operator: c.operator, value: c.value, description: c.description })),
    })),
  };
}

/** The segment keys a rule or rollout names. */
function keysOf(item: { segmentKey?: string; segmentKeys?: string[] }): string[] {
  return item.segmentKeys?.length ? item.segmentKeys : item.segmentKey ? [item.segmentKey] : [];
}

export function flagDocument(
  namespaceKey: string,
  flag: Flag,
  targeting?: { rules: Rule[]; rollouts: Rollout[]; segments: Segment[] },
) {
  const variantKey = new Map(flag.variants.map((v) => [v.id, v.key]));
  const rules = (targeting?.rules ?? []).map((r) => ({
    segment: { keys: keysOf(r), operator: r.segmentOperator },
    distributions: r.distributions.map((d) => ({ variant: variantKey.get(d.variantId) ?? '', rollout: d.rollout })),
  }));
  const rollouts = (targeting?.rollouts ?? []).map((r) =>
    r.threshold
      ? { description: r.description, threshold: { percentage: r.threshold.percentage, value: r.threshold.value } }
      : { description: r.description, segment: { keys: keysOf(r.segment ?? {}), operator: r.segment?.segmentOperator, value: r.segment?.value ?? false } },
  );
  const named = new Set([...(targeting?.rules ?? []).flatMap(keysOf), ...(targeting?.rollouts ?? []).flatMap((r) => keysOf(r.segment ?? {}))]);
  return {
    ...segmentDocument(namespaceKey, (targeting?.segments ?? []).filter((s) => named.has(s.key))),
    flags: [
      {
        key: flag.key,
        name: flag.name,
        description: flag.description,
        type: flag.type,
        enabled: flag.enabled,
        ...(flag.metadata && Object.keys(flag.metadata).length ? { metadata: flag.metadata } : {}),
        variants: flag.variants.map((v) => ({
          key: v.key,
          name: v.name,
          description: v.description,
          ...(flag.defaultVariant?.id === v.id ? { default: true } : {}),
          ...(v.attachment ? { attachment: JSON.parse(v.attachment) } : {}),
        })),
        ...(rules.length ? { rules } : {}),
        ...(rollouts.length ? { rollouts } : {}),
      },
    ],
  };
}

/**
 * The names an event of a flag's rules, rollouts or distributions needs (lib/audit-names.ts): the flag's variants,
 * rules and rollouts as they are now, and the namespace's segments. Read through the UI's cache under the keys the
 * flag page uses, so a history of many events reads each once; nothing is read for other events.
 */
import { useQuery } from '@tanstack/react-query';
import { getFlag } from '../../api/flags';
import { keys } from '../../api/query-keys';
import { listRollouts } from '../../api/rollouts';
import { listRules } from '../../api/rules';
import { listAllSegments } from '../../api/segments';
import { NO_NAMES, type AuditNames } from '../../lib/audit-names';

export function useAuditNames(ns: string, flagKey: string | undefined): AuditNames {
  const enabled = Boolean(flagKey);
  const key = flagKey ?? '';
  const flag = useQuery({ queryKey: keys.flag(ns, key), queryFn: ({ signal }) => getFlag(ns, key, signal), enabled });
  const rules = useQuery({ queryKey: keys.rules(ns, key), queryFn: ({ signal }) => listRules(ns, key, signal), enabled });
  const rollouts = useQuery({ queryKey: keys.rollouts(ns, key), queryFn: ({ signal }) => listRollouts(ns, key, signal), enabled });
  const segments = useQuery({ queryKey: keys.segments(ns), queryFn: ({ signal }) => listAllSegments(ns, signal), enabled });
  if (!flag.data || !rules.data || !rollouts.data) return NO_NAMES;
  return {
    known: true,
    variants: new Map((flag.data.variants ?? []).map((v) => [v.id, v.key])),
    rules: new Map(rules.data.map((r) => [r.id, r])),
    rollouts: new Map(rollouts.data.map((r) => [r.id, r])),
    segmentKeys: new Set((segments.data ?? []).map((s) => s.key)),
  };
}

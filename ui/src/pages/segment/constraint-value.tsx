/**
 * A constraint's value as the constraints table shows it: a list (`is one of`) as separate items, since a comma may
 * be part of one (`at,ch`); a date-time in the zone Times chose, named; anything else as it is stored.
 */
import type { Constraint } from '../../api/types';
import { displayValue, listItems, valueKind } from '../../lib/constraints';
import { useTimeZone } from '../../session/time-zone';
import { ValueList } from '../../components/value-list';

export function ConstraintValue({ constraint: c }: { constraint: Pick<Constraint, 'type' | 'operator' | 'value'> }) {
  const zone = useTimeZone();
  const kind = valueKind(c.type, c.operator);
  if (kind === 'none') return null;
  if (kind === 'list') return <ValueList label="Values" items={listItems(c.value) ?? [c.value]} />;
  return <code>{displayValue(c.type, c.operator, c.value, zone)}</code>;
}

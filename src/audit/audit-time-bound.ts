/**
 * `since` and `until` of the audit trail's list. They are compared with `occurred_at` in the database, so they must be
 * instants every dialect takes: PostgreSQL has no year 0 (`0000-01-01` failed the query, a 500), and MariaDB's
 * DATETIME(3) column is defined for years 1000 to 9999 only. Outside that range (in UTC) the request is refused, not
 * clamped: no event can be that old or that far ahead, so a bound there is a mistake worth naming.
 */
import { parseTimestamp } from '../common/timestamps';
import { ValidationError } from '../common/errors';

const EARLIEST = '1000-01-01T00:00:00.000Z';
const LATEST = '9999-12-31T23:59:59.999Z';
const RANGE = [Date.parse(EARLIEST), Date.parse(LATEST)] as const;

/** The RFC 3339 `value` of the query field `field` as a Date, or a ValidationError naming the field. */
export function parseTimeBound(value: string, field: string): Date {
  const at = parseTimestamp(value, field);
  if (at.getTime() < RANGE[0] || at.getTime() > RANGE[1]) {
    throw new ValidationError(field, `must be between ${EARLIEST} and ${LATEST} (UTC), got ${JSON.stringify(value)}`);
  }
  return at;
}

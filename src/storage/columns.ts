/**
 * Column conventions shared by every entity so that all dialects store the same thing: identifiers and keys as
 * VARCHAR(255) (Flipt's widths), free text as TEXT, timestamps with millisecond precision (`datetime(3)`).
 */
import { DateTimeType, Platform, Type, type EntityProperty } from '@mikro-orm/core';

/**
 * Free text. MySQL's TEXT holds only 64 KiB and attachments may be 1000 KB, so MySQL gets MEDIUMTEXT; the other
 * databases' TEXT is unbounded.
 */
export class LongTextType extends Type<string | null, string | null> {
  override getColumnType(prop: EntityProperty, platform: Platform): string {
    return platform.getConfig().get('driver')?.name?.match(/MySql|MariaDb/) ? 'mediumtext' : platform.getTextTypeDeclarationSQL(prop);
  }

  override compareAsType(): string {
    return 'string';
  }

  override ensureComparable(): boolean {
    return false;
  }
}

// Functions, not shared objects: MikroORM's decorators write into the options object they are given.
export const KEY = () => ({ type: 'string', length: 255 }) as const;
export const TEXT = () => ({ type: LongTextType }) as const;
/**
 * DateTimeType, not the string 'datetime': a flush compares a timestamp as loaded with its value now by `valueOf()`
 * only when MikroORM knows the property is a date. Under the string name it compared them deeply, and on SQLite
 * (which stores epoch milliseconds) a loaded Date never equalled its stored number, so every flush rewrote every
 * timestamp of every entity the write had loaded (an UPDATE per loaded row). The column is the same.
 */
export const TIMESTAMP = () => ({ type: DateTimeType, length: 3 }) as const;

let last = 0;
/**
 * A strictly increasing wall clock (ms). Lists are ordered by creation time; two rows created within the same
 * millisecond by this process would otherwise tie and come back in arbitrary order.
 */
export function now(): Date {
  const t = Math.max(Date.now(), last + 1);
  last = t;
  return new Date(t);
}

/** Drivers return timestamps as Date (pg, mysql2), epoch ms (sqlite) or text; this reads them all as UTC. */
export function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === 'number') return new Date(v);
  let s = String(v).trim().replace(' ', 'T');
  if (/^\d+$/.test(s)) return new Date(Number(s));
  // PostgreSQL prints `+00`, which JavaScript's parser does not take; MySQL prints no zone at all (UTC here).
  if (/T.*[+-]\d\d$/.test(s)) s += ':00';
  else if (!/[zZ]$|[+-]\d\d:?\d\d$/.test(s)) s += 'Z';
  return new Date(s);
}

/**
 * Ids that sort in the order they were made: UUID version 7 (RFC 9562) — 48 bits of Unix milliseconds, then a
 * counter in the 12 bits of `rand_a` so that ids made in the same millisecond by this process still sort in the
 * order they were made, then random bits. Ordering by id is ordering by time; several instances interleave by the millisecond. The stored
 * audit trail pages by them; an import gives the rows it writes in one millisecond ids in document order.
 */
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

export function timeOrderedId(at = Date.now()): string {
  let ms = Math.max(at, lastMs);
  if (ms === lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const random = randomBytes(8);
  random[0] = (random[0] & 0x3f) | 0x80;
  const hex = ms.toString(16).padStart(12, '0') + (0x7000 | sequence).toString(16) + random.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

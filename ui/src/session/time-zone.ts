/**
 * How date-times are shown and entered: in UTC or in the browser's local time (Flipt's "UTC timezone" preference),
 * kept in this browser (localStorage); local time until chosen. Every page renders again on a change, since every
 * date-time on it is written in the zone chosen (lib/format.ts).
 */
import { renderPageAgain } from '../routing/hash-router';
import { preference } from './preference';

export type TimeZone = 'local' | 'utc';

const chosen = preference<TimeZone>('flagpole.timeZone', ['local', 'utc']);

/** The zone in force now. */
export const chosenTimeZone = (): TimeZone => chosen.get() ?? 'local';

export function chooseTimeZone(zone: TimeZone): void {
  chosen.choose(zone);
  renderPageAgain();
}

export const useTimeZone = (): TimeZone => chosen.use() ?? 'local';

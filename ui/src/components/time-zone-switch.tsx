/** The time zone choice in the navigation, beside the theme: date-times in local time or in UTC (session/time-zone.ts). */
import { useId } from 'react';
import { utcOffset } from '../lib/format';
import { chooseTimeZone, useTimeZone, type TimeZone } from '../session/time-zone';

export function TimeZoneSwitch() {
  const zone = useTimeZone();
  const id = useId();
  return (
    <div className="theme-switch zone-switch">
      <label htmlFor={id}>Times</label>
      {/* Short choices for the narrow navigation: every date-time shown names its offset anyway. */}
      <select id={id} value={zone} onChange={(e) => chooseTimeZone(e.target.value as TimeZone)} title={`Local time here is ${utcOffset(new Date())}`}>
        <option value="local">Local</option>
        <option value="utc">UTC</option>
      </select>
    </div>
  );
}

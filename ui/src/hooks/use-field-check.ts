/**
 * A field checked as it is typed: its problem (what the API would refuse) is shown once there is something to judge,
 * after the first character or when the field is left, and not before, so an empty form does not open in red.
 */
import { useState } from 'react';

export interface FieldCheck {
  /** What is wrong now, shown or not: a form with one cannot be sent. */
  problem?: string;
  /** The problem to show under the field. */
  shown?: string;
  /** Starts showing the problem: the field's `onBlur`, and a refused submit. */
  reveal(): void;
}

export function useFieldCheck(value: string, check: (value: string) => string | undefined): FieldCheck {
  const [judged, setJudged] = useState(false);
  // Derived while rendering (React's pattern for state that follows a prop): the first character starts the check.
  if (value !== '' && !judged) setJudged(true);
  const problem = check(value);
  return { problem, shown: judged ? problem : undefined, reveal: () => setJudged(true) };
}

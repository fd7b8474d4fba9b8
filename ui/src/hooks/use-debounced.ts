import { useEffect, useState } from 'react';

/** `value`, once it has stopped changing for `ms`: a search starts when the typing pauses, not at every key. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

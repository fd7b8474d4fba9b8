/**
 * The search box's text and the term the list is for (the address's `q`). Typing shows at once in the box; the term
 * follows when the typing pauses (an emptied box at once), through `commit`. When the address changes by itself
 * (Back, Forward, a link) while the box agreed with it, the box follows the address.
 */
import { useEffect, useState } from 'react';

/** Short enough that an answer is on screen well within 200 ms of the last key, long enough to skip most keys. */
export const TYPING_PAUSE_MS = 75;

export interface SearchText {
  /** What the box shows. */
  typed: string;
  type(text: string): void;
  /** The box shows the address's term (trimmed): the list's rows answer what the box says. */
  settled: boolean;
}

export function useSearchText(term: string, commit: (term: string) => void): SearchText {
  const [typed, setTyped] = useState(term);
  const [seen, setSeen] = useState(term);
  if (term !== seen) {
    setSeen(term);
    // Not this box's own term arriving: the address moved while the box showed the term before.
    if (typed.trim() === seen) setTyped(term);
  }
  useEffect(() => {
    const wanted = typed.trim();
    if (wanted === term) return;
    const t = setTimeout(() => commit(wanted), wanted ? TYPING_PAUSE_MS : 0);
    return () => clearTimeout(t);
  }, [typed, term]);
  return { typed, type: setTyped, settled: typed.trim() === term };
}

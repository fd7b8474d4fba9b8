/**
 * The UI's one cache of API answers (TanStack Query). Pages read through `useLoad` (hooks/use-load.ts); a write
 * answered by the API marks what it changed as stale (query-keys.ts), and whatever is on screen from it is read
 * again, so no view keeps showing what a write changed (a rule naming a deleted variant, say).
 */
import { QueryClient } from '@tanstack/react-query';
import { staleAfterWrite } from './query-keys';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The API's answer is shown as it is: a 404 or a refusal does not get better by asking three more times.
      retry: false,
    },
  },
});

/** Called by the API client after every successful call that is not a GET. */
export function afterWrite(path: string): void {
  const stale = staleAfterWrite(path);
  if (stale === 'nothing') return;
  void queryClient.invalidateQueries(stale === 'everything' ? undefined : { queryKey: stale });
}

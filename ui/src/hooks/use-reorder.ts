/**
 * Moving a rule or rollout: the list on screen changes at once, the new order is sent as one `…/order` call with
 * every id, and the list is read again whatever happened, so the screen ends up as the server has it. The read after
 * one move can still be in flight when the next move starts: `set` cancels it, or its answer (the order before the
 * next move) would land over the next move's list.
 */
import { moved } from '../components/order-buttons';
import { useNotify } from '../components/notices';
import { useAction, type Action } from './use-action';
import type { Loaded } from './use-load';

export function useReorder<T extends { id: string }>(
  loaded: Loaded<T[]>,
  saveOrder: (ids: string[]) => Promise<unknown>,
  what: string,
): Action<[number, number]> {
  const notify = useNotify();
  return useAction(async (from: number, to: number) => {
    const next = moved(loaded.data ?? [], from, to);
    await loaded.set(next);
    try {
      await saveOrder(next.map((x) => x.id));
      notify(`${what} moved to position ${to + 1}`);
    } finally {
      loaded.reload();
    }
  });
}

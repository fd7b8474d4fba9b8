import { ApiError } from './client';

/** True when `lookup` finds the item, false when it answers 404; other failures are thrown. */
export async function exists(lookup: Promise<unknown>): Promise<boolean> {
  try {
    await lookup;
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return false;
    throw e;
  }
}

/** What "Copy to namespace" needs of a flag: whether the target has its key, and the document to import there. */
import { ApiError } from '../../api/client';
import { getFlag } from '../../api/flags';
import { listRollouts } from '../../api/rollouts';
import { listRules } from '../../api/rules';
import { listAllSegments } from '../../api/segments';
import type { Flag } from '../../api/types';
import { flagDocument } from '../../lib/copy-document';
import type { CopySource } from '../copy-dialog';

export function copySource(ns: string, flag: Flag): CopySource {
  const isBoolean = flag.type === 'BOOLEAN_FLAG_TYPE';
  return {
    what: 'flag',
    key: flag.key,
    targeting: isBoolean ? 'rollouts' : 'rules',
    takenIn: async (target) => {
      try {
        await getFlag(target, flag.key);
        return `Namespace ${target} already has a flag ${flag.key}: delete or rename it there first.`;
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return undefined;
        throw e;
      }
    },
    document: async (target, withTargeting) => {
      if (!withTargeting) return flagDocument(target, flag);
      const [rules, rollouts, segments] = await Promise.all([
        isBoolean ? [] : listRules(ns, flag.key),
        isBoolean ? listRollouts(ns, flag.key) : [],
        listAllSegments(ns),
      ]);
      return flagDocument(target, flag, { rules, rollouts, segments });
    },
  };
}

/** What "Copy to namespace" needs of a flag: whether the target has its key, and the document to import there. */
import { exists } from '../../api/exists';
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
    takenIn: (target) => exists(getFlag(target, flag.key)),
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

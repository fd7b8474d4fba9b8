/** What "Copy to namespace" needs of a segment: whether the target has its key, and the segment with its constraints as a document. */
import { exists } from '../../api/exists';
import { getSegment } from '../../api/segments';
import type { Segment } from '../../api/types';
import { segmentDocument } from '../../lib/copy-document';
import type { CopySource } from '../copy-dialog';

export function copySegment(segment: Segment): CopySource {
  return {
    what: 'segment',
    key: segment.key,
    takenIn: (target) => exists(getSegment(target, segment.key)),
    document: async (target) => segmentDocument(target, [segment]),
  };
}

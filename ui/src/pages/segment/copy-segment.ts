/** What "Copy to namespace" needs of a segment: the segment with its constraints, as a document to import. */
import type { Segment } from '../../api/types';
import { segmentDocument } from '../../lib/copy-document';
import type { CopySource } from '../copy-dialog';

export function copySegment(segment: Segment): CopySource {
  return {
    what: 'segment',
    key: segment.key,
    // The import refuses a key the target has, in its own words: nothing to ask first.
    takenIn: async () => undefined,
    document: async (target) => segmentDocument(target, [segment]),
  };
}

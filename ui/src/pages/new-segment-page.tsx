/** Creates a segment (all or any constraints), then opens it to add constraints. */
import { useState } from 'react';
import { createSegment } from '../api/segments';
import type { MatchType } from '../api/types';
import { NewItemPage } from './new-item-page';
import { MatchTypeField } from './segment/match-type-field';

export function NewSegmentPage({ ns }: { ns: string }) {
  const [matchType, setMatchType] = useState<MatchType>('ALL_MATCH_TYPE');
  return (
    <NewItemPage ns={ns} kind="segment" create={(item) => createSegment(ns, { ...item, matchType })} changed={matchType !== 'ALL_MATCH_TYPE'}>
      <MatchTypeField value={matchType} onChange={setMatchType} />
    </NewItemPage>
  );
}

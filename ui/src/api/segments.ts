import { api, enc } from './client';
import type { ListQuery, PageFetcher } from './paging';
import type { ComparisonType, Constraint, MatchType, Page, Segment } from './types';

const segmentsOf = (ns: string) => `api/v1/namespaces/${enc(ns)}/segments`;
const segmentPath = (ns: string, key: string) => `${segmentsOf(ns)}/${enc(key)}`;

/** A namespace's segments a page at a time; `query` searches and sorts them. */
export const segmentPages = (ns: string, query: ListQuery = {}): PageFetcher<Segment> => async (limit, pageToken, signal) => {
  const r = await api.get<{ segments: Segment[] } & Page>(segmentsOf(ns), { query: { limit, pageToken, ...query }, signal });
  return { items: r.segments, nextPageToken: r.nextPageToken, totalCount: r.totalCount };
};

/** Every segment of a namespace (limit 0 = all), for pickers. */
export async function listAllSegments(ns: string, signal?: AbortSignal): Promise<Segment[]> {
  return (await api.get<{ segments: Segment[] }>(segmentsOf(ns), { signal })).segments;
}

export const getSegment = (ns: string, key: string, signal?: AbortSignal) => api.get<Segment>(segmentPath(ns, key), { signal });

export interface SegmentInput {
  key: string;
  name: string;
  description: string;
  matchType: MatchType;
}

export const createSegment = (ns: string, input: SegmentInput) => api.post<Segment>(segmentsOf(ns), input);

export const updateSegment = (ns: string, input: SegmentInput) =>
  api.put<Segment>(segmentPath(ns, input.key), { name: input.name, description: input.description, matchType: input.matchType });

export const deleteSegment = (ns: string, key: string) => api.delete(segmentPath(ns, key));

export interface ConstraintInput {
  type: ComparisonType;
  property: string;
  operator: string;
  value: string;
  description: string;
}

export const createConstraint = (ns: string, segmentKey: string, input: ConstraintInput) =>
  api.post<Constraint>(`${segmentPath(ns, segmentKey)}/constraints`, input);

export const updateConstraint = (ns: string, segmentKey: string, id: string, input: ConstraintInput) =>
  api.put<Constraint>(`${segmentPath(ns, segmentKey)}/constraints/${enc(id)}`, input);

export const deleteConstraint = (ns: string, segmentKey: string, id: string) =>
  api.delete(`${segmentPath(ns, segmentKey)}/constraints/${enc(id)}`);

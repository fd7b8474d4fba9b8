import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IntField, StringField } from './dto-fields';

export const SORT_FIELDS = ['key', 'name', 'createdAt', 'updatedAt'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** Every accepted spelling of `sort`: each field, ascending or (`-`) descending. */
export const SORT_VALUES: readonly string[] = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);

/** Longest `search` text: it becomes a LIKE pattern (storage/list-filter.ts), and nobody types more. */
export const MAX_SEARCH_LENGTH = 200;

/** Query of Flipt's paginated lists. `reference` only matters to declarative backends and is accepted and ignored. */
export class ListQuery {
  @IntField({ description: 'Page size; 0 or absent returns every item' })
  limit?: number;

  @IntField({ description: 'Deprecated: offset of the first item (use pageToken)' })
  offset?: number;

  @StringField({ description: 'nextPageToken of the previous page' })
  pageToken?: string;

  @StringField({ description: 'Ignored (declarative backends only)' })
  reference?: string;

  @StringField({ description: 'Namespace for the legacy un-namespaced routes (default `default`)' })
  namespaceKey?: string;
}

/** The flag and segment lists: Flipt's paging plus Flagpole's search and order (storage/list-filter.ts). */
export class SearchableListQuery extends ListQuery {
  @StringField({
    description: `Flagpole addition: only items whose key, name or description contains this text, in any case (at most ${MAX_SEARCH_LENGTH} characters)`,
  })
  search?: string;

  @ApiPropertyOptional({
    enum: SORT_VALUES,
    description: 'Flagpole addition: order by this field, `-` first for descending; absent = creation order, as Flipt',
  })
  @IsOptional()
  @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` })
  sort?: string;
}

export class EmptyResponse {}

export class ErrorResponse {
  @ApiProperty({ description: 'gRPC status code', example: 5 })
  code!: number;

  @ApiProperty({ example: 'flag "default/nope" not found' })
  message!: string;

  @ApiProperty({ type: [Object], example: [] })
  details!: unknown[];
}

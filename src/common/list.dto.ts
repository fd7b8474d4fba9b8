import { ApiProperty } from '@nestjs/swagger';
import { IntField, StringField } from './dto-fields';

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

export class EmptyResponse {}

export class ErrorResponse {
  @ApiProperty({ description: 'gRPC status code', example: 5 })
  code!: number;

  @ApiProperty({ example: 'flag "default/nope" not found' })
  message!: string;

  @ApiProperty({ type: [Object], example: [] })
  details!: unknown[];
}

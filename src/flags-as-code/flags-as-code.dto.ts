import { ApiProperty } from '@nestjs/swagger';
import { BoolField, StringField } from '../common/dto-fields';

export class ExportQuery {
  @StringField({ description: 'Document encoding: `yaml` (default) or `json` (one compact object per line, as Flipt writes it)' })
  format?: string;

  @BoolField({ description: 'Sort flags, segments and variants by key (Flipt\'s `--sort-by-key`)' })
  sortByKey?: boolean;
}

export class ImportQuery {
  @BoolField({ description: 'Keep flags and segments whose keys the namespace already has, and skip the document\'s (Flipt\'s `--skip-existing`)' })
  skipExisting?: boolean;

  @BoolField({ description: 'Delete the namespace\'s flags and segments first, in the same transaction: the namespace becomes the document' })
  drop?: boolean;
}

export class ImportResponse {
  @ApiProperty() namespaceKey!: string;
  @ApiProperty({ description: 'The namespace did not exist and was created' }) namespaceCreated!: boolean;
  @ApiProperty() flagsCreated!: number;
  @ApiProperty({ description: 'Flags left as they were (skipExisting)' }) flagsSkipped!: number;
  @ApiProperty({ description: 'Flags deleted first (drop)' }) flagsDeleted!: number;
  @ApiProperty() segmentsCreated!: number;
  @ApiProperty({ description: 'Segments left as they were (skipExisting)' }) segmentsSkipped!: number;
  @ApiProperty({ description: 'Segments deleted first (drop)' }) segmentsDeleted!: number;
}

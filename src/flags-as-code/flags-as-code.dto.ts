import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BoolField, StringField } from '../common/dto-fields';

export class ExportQuery {
  @StringField({ description: 'Document encoding: `yaml` (default) or `json` (one compact object per line, as Flipt writes it)' })
  format?: string;

  @BoolField({ description: 'Sort flags, segments and variants by key (Flipt\'s `--sort-by-key`)' })
  sortByKey?: boolean;

  @BoolField({ description: 'Also the open scheduled changes, under the Flagpole extension key `x-flagpole-schedules` (Flipt ignores it)' })
  schedules?: boolean;
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
  @ApiPropertyOptional({ description: 'Only for a document with `x-flagpole-schedules`: scheduled changes created' }) schedulesCreated?: number;
  @ApiPropertyOptional({ description: 'Only for a document with `x-flagpole-schedules`: scheduled changes of skipped flags, not created (skipExisting)' })
  schedulesSkipped?: number;
  @ApiPropertyOptional({ description: 'Only when drop cancelled any: the namespace\'s open scheduled changes, whose flags it deleted' }) schedulesCancelled?: number;
}

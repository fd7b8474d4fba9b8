import { ApiProperty } from '@nestjs/swagger';
import { BoolField, StringField } from '../common/dto-fields';

export class CreateNamespaceRequest {
  @StringField({ required: true, example: 'production', description: 'Letters, digits, `-`, `_` and `,`' })
  key?: string;

  @StringField({ required: true, example: 'Production' })
  name?: string;

  @StringField()
  description?: string;
}

export class UpdateNamespaceRequest {
  @StringField({ required: true })
  name?: string;

  @StringField()
  description?: string;
}

export class DeleteNamespaceQuery {
  @BoolField({ description: 'Delete even a protected namespace, and its flags first' })
  force?: boolean;
}

export class NamespaceResponse {
  @ApiProperty() key!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty() protected!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class NamespaceListResponse {
  @ApiProperty({ type: [NamespaceResponse] }) namespaces!: NamespaceResponse[];
  @ApiProperty() nextPageToken!: string;
  @ApiProperty() totalCount!: number;
}

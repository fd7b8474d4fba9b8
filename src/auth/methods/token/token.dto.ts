import { ApiProperty } from '@nestjs/swagger';
import { StringField, StringMapField } from '../../../common/dto-fields';
import { AuthenticationResponse } from '../../auth.dto';

export class CreateTokenRequest {
  @StringField({ example: 'ci' })
  name?: string;

  @StringField()
  description?: string;

  @StringField({ description: 'RFC 3339 time after which the token no longer authenticates; none = never expires' })
  expiresAt?: string;

  @StringField({ description: 'Bind the token to one namespace: it then works only on requests in that namespace' })
  namespaceKey?: string;

  @StringMapField({ description: 'Extra metadata stored with the token' })
  metadata?: Record<string, string>;
}

export class CreateTokenResponse {
  @ApiProperty({ description: 'The client token; shown only here, stored only as a hash' }) clientToken!: string;
  @ApiProperty({ type: AuthenticationResponse }) authentication!: AuthenticationResponse;
}

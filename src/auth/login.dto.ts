import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '../common/dto-fields';
import { AuthenticationResponse } from './auth.dto';

export class AuthorizeQuery {
  @StringField({ description: 'Opaque value handed back through the login (kept inside the state sent to the provider)' })
  state?: string;
}

export class CallbackQuery {
  @StringField({ description: 'Authorization code from the provider' })
  code?: string;

  @StringField({ description: 'Required: the state sent to the provider, equal to the flagpole_client_state cookie' })
  state?: string;

  @StringField({ description: 'Issuer of the response (RFC 9207), checked when the provider sends it' })
  iss?: string;

  @StringField({ description: 'Error the provider reports instead of a code' })
  error?: string;

  @StringField()
  errorDescription?: string;
}

export class AuthorizeResponse {
  @ApiProperty({ description: "The provider's login page to send the browser to" }) authorizeUrl!: string;
}

export class CallbackResponse {
  @ApiProperty({ description: 'Always empty: the token travels in the flagpole_client_token cookie' }) clientToken!: string;
  @ApiProperty({ type: AuthenticationResponse }) authentication!: AuthenticationResponse;
}

/**
 * Passport strategy of the JWT method: `Authorization: JWT <jwt>` verified on every request. A request without a
 * JWT fails this strategy (the guard goes on to client tokens); a JWT that does not verify is refused outright.
 */
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-custom';
import type { AuthenticationRecord } from '../../authentication.record';
import type { CredentialRequest } from '../../credentials';
import { authenticatorOf } from '../../request-authenticator';

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  async validate(request: CredentialRequest): Promise<AuthenticationRecord | null> {
    const method = authenticatorOf(request).enabledMethod('jwt');
    return method?.authenticate ? method.authenticate(request) : null;
  }
}

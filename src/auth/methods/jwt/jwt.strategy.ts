/**
 * Passport strategy of the JWT method, registered only while the method is enabled: `Authorization: JWT <jwt>`
 * verified on every request (JwtMethod; verified JWTs are remembered until they expire, for at most a minute). A
 * request without a JWT is not this strategy's (Passport tries client tokens next); a JWT that does not verify is
 * refused outright.
 */
import { Injectable } from '@nestjs/common';
import { RequestStrategy, type Validation } from '../../auth-strategies';
import type { CredentialRequest } from '../../credentials';
import { JwtMethod } from './jwt.method';

export const JWT_STRATEGY = 'jwt';

@Injectable()
export class JwtStrategy extends RequestStrategy(JWT_STRATEGY) {
  constructor(private readonly jwt: JwtMethod) {
    super();
  }

  validate(request: CredentialRequest): Validation {
    return this.jwt.authenticate(request);
  }
}

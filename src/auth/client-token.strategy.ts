/**
 * Passport strategy for client tokens — `Authorization: Bearer <token>` or the session cookie — whichever method
 * issued them (static tokens, OIDC, GitHub, Kubernetes). The guard tries it after the per-request methods (JWT).
 */
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-custom';
import type { AuthenticationRecord } from './authentication.record';
import type { CredentialRequest } from './credentials';
import { authenticatorOf, CLIENT_TOKEN_STRATEGY } from './request-authenticator';

@Injectable()
export class ClientTokenStrategy extends PassportStrategy(Strategy, CLIENT_TOKEN_STRATEGY) {
  validate(request: CredentialRequest): Promise<AuthenticationRecord> {
    return authenticatorOf(request).authenticateClientToken(request);
  }
}

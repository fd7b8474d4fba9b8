import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../../../config/config.tokens';
import type { AuthenticationCleanupConfig, FlagpoleConfig } from '../../../config/config.types';
import { AuthMethod, Method } from '../../auth-method';
import type { AuthenticationRecord } from '../../authentication.record';

export const OIDC_PATH = '/auth/v1/method/oidc';
export const OIDC_EMAIL = 'io.flagpole.auth.oidc.email';

/** Browser login through one or more OpenID Connect providers (oidc.service.ts does the work). */
@Injectable()
export class OidcMethod implements AuthMethod {
  readonly name = 'oidc';
  readonly method = Method.METHOD_OIDC;
  readonly sessionCompatible = true;
  readonly enabled: boolean;
  readonly cleanup: AuthenticationCleanupConfig;
  private readonly providers: string[];
  private readonly emailMatches: RegExp[];

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    const oidc = config.authentication.methods.oidc;
    ({ enabled: this.enabled, cleanup: this.cleanup } = oidc);
    this.providers = Object.keys(oidc.providers).sort();
    this.emailMatches = oidc.emailMatches.map((pattern) => new RegExp(pattern));
  }

  info(prefix: string): Record<string, unknown> {
    const providers = Object.fromEntries(
      this.providers.map((p) => [
        p,
        { authorize_url: `${prefix}${OIDC_PATH}/${p}/authorize`, callback_url: `${prefix}${OIDC_PATH}/${p}/callback` },
      ]),
    );
    return { providers };
  }

  /** `email_matches`: an OIDC session is accepted only while its email matches one of the patterns. */
  admits(authentication: AuthenticationRecord): boolean {
    if (this.emailMatches.length === 0) return true;
    const email = authentication.metadata[OIDC_EMAIL];
    return email !== undefined && this.emailMatches.some((r) => r.test(email));
  }
}

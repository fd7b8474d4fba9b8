import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../../../config/config.tokens';
import type { AuthenticationCleanupConfig, FlagpoleConfig } from '../../../config/config.types';
import { AuthMethod, Method } from '../../auth-method';

/** Static client tokens, created through the API (and once at bootstrap) and presented as Bearer tokens. */
@Injectable()
export class TokenMethod implements AuthMethod {
  readonly name = 'token';
  readonly method = Method.METHOD_TOKEN;
  readonly sessionCompatible = false;
  readonly enabled: boolean;
  readonly cleanup: AuthenticationCleanupConfig;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    ({ enabled: this.enabled, cleanup: this.cleanup } = config.authentication.methods.token);
  }
}

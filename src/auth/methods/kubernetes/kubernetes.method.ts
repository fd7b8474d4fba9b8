import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../../../config/config.tokens';
import type { AuthenticationCleanupConfig, FlagpoleConfig } from '../../../config/config.types';
import { AuthMethod, Method } from '../../auth-method';

/** Service-account tokens of the surrounding cluster exchanged for client tokens (kubernetes.service.ts). */
@Injectable()
export class KubernetesMethod implements AuthMethod {
  readonly name = 'kubernetes';
  readonly method = Method.METHOD_KUBERNETES;
  readonly sessionCompatible = false;
  readonly enabled: boolean;
  readonly cleanup: AuthenticationCleanupConfig;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    ({ enabled: this.enabled, cleanup: this.cleanup } = config.authentication.methods.kubernetes);
  }
}

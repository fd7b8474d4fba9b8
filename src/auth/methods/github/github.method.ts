import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../../../config/config.tokens';
import type { AuthenticationCleanupConfig, FlagpoleConfig } from '../../../config/config.types';
import { AuthMethod, Method } from '../../auth-method';

export const GITHUB_PATH = '/auth/v1/method/github';

/** Browser login through a GitHub OAuth app (github.service.ts does the work). */
@Injectable()
export class GithubMethod implements AuthMethod {
  readonly name = 'github';
  readonly method = Method.METHOD_GITHUB;
  readonly sessionCompatible = true;
  readonly enabled: boolean;
  readonly cleanup: AuthenticationCleanupConfig;

  constructor(@Inject(CONFIG) config: FlagpoleConfig) {
    ({ enabled: this.enabled, cleanup: this.cleanup } = config.authentication.methods.github);
  }

  info(prefix: string): Record<string, unknown> {
    return { authorize_url: `${prefix}${GITHUB_PATH}/authorize`, callback_url: `${prefix}${GITHUB_PATH}/callback` };
  }
}

/**
 * At start-up with the token method enabled, creates `initial_bootstrap_token` — the configured value or a random
 * one — and logs its value once under `client_token`, so that an operator can create the real tokens with it. This
 * happens once per database (the seed's "first start"): the token is written together with the `operation_lock` row
 * `bootstrap_auth_METHOD_TOKEN`, and while that row exists nothing is created again, so a bootstrap token the
 * operator deleted stays deleted. Every earlier version wrote the same row (as its lock) before creating the token,
 * so databases bootstrapped before count as bootstrapped. Deleting the row is the way to bootstrap again
 * (docs/authentication.md). Instances starting together race on inserting the row; one wins.
 */
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig } from '../../../config/config.types';
import { rootLogger } from '../../../logging/logger';
import { Method } from '../../auth-method';
import { AuthenticationStore } from '../../authentication.store';
import { BOOTSTRAP_TOKEN_DESCRIPTION, BOOTSTRAP_TOKEN_NAME, TOKEN_DESCRIPTION, TOKEN_NAME } from './token.metadata';
import { ProcessDuty, type ProcessDutyProvider } from '../../../common/process-duty';

export const BOOTSTRAP_MARKER = 'bootstrap_auth_METHOD_TOKEN';

/** Below this a guessable value is likely; generated tokens have 44 characters. */
const SHORT_TOKEN = 16;

@ProcessDuty()
@Injectable()
export class TokenBootstrap implements ProcessDutyProvider {
  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly store: AuthenticationStore,
  ) {}

  async start(): Promise<void> {
    const { bootstrap } = this.config.authentication.methods.token;
    const logger = rootLogger(this.config.log).child({ context: 'Authentication' });
    if (bootstrap.token && bootstrap.token.length < SHORT_TOKEN) {
      logger.warn(
        `authentication.methods.token.bootstrap.token is shorter than ${SHORT_TOKEN} characters: ` +
          'use a long random value, or leave it unset to have one generated',
      );
    }
    const created = await this.store.createOnce(BOOTSTRAP_MARKER, {
      method: Method.METHOD_TOKEN,
      metadata: { ...bootstrap.metadata, [TOKEN_NAME]: BOOTSTRAP_TOKEN_NAME, [TOKEN_DESCRIPTION]: BOOTSTRAP_TOKEN_DESCRIPTION },
      expiresAt: bootstrap.expiration > 0 ? new Date(Date.now() + bootstrap.expiration) : null,
      ...(bootstrap.token ? { clientToken: bootstrap.token } : {}),
    });
    // Flipt's line: message `access token created`, field `client_token`.
    if (created) logger.info({ client_token: created.clientToken }, 'access token created');
  }
}

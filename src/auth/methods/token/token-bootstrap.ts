/**
 * At start-up with the token method enabled and no static token named `initial_bootstrap_token`, creates one —
 * the configured value or a random one — and logs its value once under `client_token`, so that an operator can
 * create the real tokens with it (the seed's rule; restarts find it and do nothing). Two instances starting
 * together are serialised by an operation lock.
 */
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig } from '../../../config/config.types';
import { rootLogger } from '../../../logging/logger';
import { Method } from '../../auth-method';
import { AuthenticationStore } from '../../authentication.store';
import { OperationLocks } from '../../operation-lock.service';
import { BOOTSTRAP_TOKEN_DESCRIPTION, BOOTSTRAP_TOKEN_NAME, TOKEN_DESCRIPTION, TOKEN_NAME } from './token.metadata';

const LOCK = 'bootstrap_auth_METHOD_TOKEN';
const LOCK_MS = 60_000;

@Injectable()
export class TokenBootstrap implements OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
    private readonly store: AuthenticationStore,
    private readonly locks: OperationLocks,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { bootstrap } = this.config.authentication.methods.token;
    const exists = async () => (await this.store.countWithMetadata(Method.METHOD_TOKEN, TOKEN_NAME, BOOTSTRAP_TOKEN_NAME)) > 0;
    if (await exists()) return;
    if (!(await this.locks.tryAcquire(LOCK, LOCK_MS))) return;
    if (await exists()) return;
    const { clientToken } = await this.store.create({
      method: Method.METHOD_TOKEN,
      metadata: { ...bootstrap.metadata, [TOKEN_NAME]: BOOTSTRAP_TOKEN_NAME, [TOKEN_DESCRIPTION]: BOOTSTRAP_TOKEN_DESCRIPTION },
      expiresAt: bootstrap.expiration > 0 ? new Date(Date.now() + bootstrap.expiration) : null,
      ...(bootstrap.token ? { clientToken: bootstrap.token } : {}),
    });
    // Flipt's line: message `access token created`, field `client_token`.
    rootLogger(this.config.log).child({ context: 'Authentication' }).info({ client_token: clientToken }, 'access token created');
  }
}

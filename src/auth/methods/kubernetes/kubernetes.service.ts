/**
 * `POST /auth/v1/method/kubernetes/serviceaccount`: a pod's service-account token, verified against the cluster's
 * issuer (cluster-keys.ts), becomes a stored client token that expires with it. `allowed_service_accounts`
 * (Flagpole's addition) narrows down which service accounts may do so.
 */
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { EmptyFieldError, UnauthenticatedError } from '../../../common/errors';
import { CONFIG } from '../../../config/config.tokens';
import type { FlagpoleConfig, KubernetesMethodConfig } from '../../../config/config.types';
import { serviceAccountMatcher } from '../../../config/service-account-allow-list';
import { Method } from '../../auth-method';
import { AuthenticationStore } from '../../authentication.store';
import { toAuthenticationJson } from '../../authentication.record';
import type { CreateTokenResponse } from '../token/token.dto';
import { ClusterKeys } from './cluster-keys';

const PREFIX = 'io.flagpole.auth.k8s';

interface KubernetesClaims {
  namespace?: string;
  pod?: { name?: string; uid?: string };
  serviceaccount?: { name?: string; uid?: string };
}

@Injectable()
export class KubernetesService implements OnModuleInit {
  private readonly logger = new Logger('Authentication');
  private readonly config: KubernetesMethodConfig;
  private readonly allowed: (namespace: string, name: string) => boolean;
  private keys!: ClusterKeys;

  constructor(
    @Inject(CONFIG) config: FlagpoleConfig,
    private readonly store: AuthenticationStore,
  ) {
    this.config = config.authentication.methods.kubernetes;
    this.allowed = serviceAccountMatcher(this.config.allowedServiceAccounts);
  }

  onModuleInit(): void {
    this.keys = new ClusterKeys(this.config);
  }

  async exchange(serviceAccountToken: string | undefined): Promise<CreateTokenResponse> {
    if (!serviceAccountToken) throw new EmptyFieldError('service_account_token');
    const claims = await this.verify(serviceAccountToken);
    const k8s = (claims['kubernetes.io'] ?? {}) as KubernetesClaims;
    const namespace = k8s.namespace ?? '';
    const name = k8s.serviceaccount?.name ?? '';
    if (!this.allowed(namespace, name)) {
      this.logger.debug(`unauthenticated: service account ${namespace}/${name} is not in allowed_service_accounts`);
      throw new UnauthenticatedError();
    }
    const created = await this.store.create({
      method: Method.METHOD_KUBERNETES,
      expiresAt: new Date(claims.exp! * 1000),
      metadata: {
        [`${PREFIX}.namespace`]: namespace,
        [`${PREFIX}.pod.name`]: k8s.pod?.name ?? '',
        [`${PREFIX}.pod.uid`]: k8s.pod?.uid ?? '',
        [`${PREFIX}.serviceaccount.name`]: name,
        [`${PREFIX}.serviceaccount.uid`]: k8s.serviceaccount?.uid ?? '',
      },
    });
    return { clientToken: created.clientToken, authentication: toAuthenticationJson(created.authentication) };
  }

  /**
   * Signature, issuer and expiry (the audience is not checked, as in Flipt). Flipt answers a token that does not
   * verify with 500; Flagpole says what it is: 401, with Flipt's message.
   */
  private async verify(token: string): Promise<JWTPayload> {
    try {
      const issuer = await this.keys.get(decodeProtectedHeader(token).kid);
      const { payload } = await jwtVerify(token, issuer.keys, { issuer: issuer.issuer, algorithms: issuer.algorithms });
      if (typeof payload.exp !== 'number') throw new Error('token has no expiry');
      return payload;
    } catch (e) {
      throw new UnauthenticatedError(`verifying service account: ${(e as Error).message}`);
    }
  }
}

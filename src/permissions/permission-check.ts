/**
 * A permission a service checks itself, because whether it is needed depends on what the write finds: an import
 * needs `create` on `namespace` only when its namespace does not exist yet, which the route cannot declare up front
 * (the guard checks what it declares). `@PermissionChecker()` gives a handler the check for its caller, to hand to
 * the service: it throws Flipt's PermissionDeniedError, logged as the guard logs its refusals (the AuditInterceptor
 * then records the write as `denied`), unless the caller's grant allows it. Undefined where nothing is checked:
 * authorization off, or no credential asked for (`authentication.exclude`), as the guard checks nothing then either.
 */
import { createParamDecorator, Injectable, Logger, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTHENTICATION, type AuthenticatedRequest } from '../auth/auth.decorators';
import { PermissionDeniedError } from '../common/errors';
import { Authorizer } from '../authorization/authorizer.service';
import { credentialLabel } from '../authorization/credential-label';
import type { Action, Resource } from '../authorization/policy';

export type PermissionCheck = (action: Action, resource: Resource, namespace: string) => void;

type CheckedRequest = FastifyRequest & AuthenticatedRequest;

/** A pipe, so that the Authorizer is injected: a parameter decorator's factory has only the request. */
@Injectable()
export class PermissionCheckPipe implements PipeTransform<CheckedRequest, PermissionCheck | undefined> {
  private readonly logger = new Logger('Authorization');

  constructor(private readonly authorizer: Authorizer) {}

  transform(request: CheckedRequest): PermissionCheck | undefined {
    const authentication = request[AUTHENTICATION];
    if (!this.authorizer.enabled || !authentication) return undefined;
    return (action, resource, namespace) => {
      // Worked out when asked: the policy may have been reloaded since the guard looked (the grant is cached per credential).
      const grant = this.authorizer.grantOf(authentication);
      if (grant.allows(action, resource, namespace)) return;
      this.logger.warn(`denied: ${request.method} ${request.url}: ${credentialLabel(authentication, grant.roles)} may not ${action} on ${resource} in namespace ${JSON.stringify(namespace)}`);
      throw new PermissionDeniedError();
    };
  }
}

const TheRequest = createParamDecorator((_: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<CheckedRequest>());

/** The caller's PermissionCheck (undefined: nothing to check). */
export const PermissionChecker = () => TheRequest(undefined, PermissionCheckPipe);

/**
 * Authorization (docs/authorization.md): the policy the one guard enforces (Authorizer) and the seam through which it
 * reports refusals (Denials). Global: the guard lives in the auth module. The routes that show a caller its
 * permissions are permissions/'s.
 */
import { Global, Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { Authorizer } from './authorizer.service';
import { Denials } from './denials';

@Global()
@Module({
  imports: [HealthModule],
  providers: [Authorizer, Denials],
  exports: [Authorizer, Denials],
})
export class AuthorizationModule {}

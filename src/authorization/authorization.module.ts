/**
 * Authorization (docs/authorization.md): the policy the one guard enforces (Authorizer), the seam through which it
 * reports refusals (Denials), and `GET /auth/v1/self/permissions` (PermissionsService). Global: the guard lives in
 * the auth module.
 */
import { Global, Module } from '@nestjs/common';
import { Denials } from '../auth/denials';
import { HealthModule } from '../health/health.module';
import { NamespacesModule } from '../namespaces/namespaces.module';
import { Authorizer } from './authorizer.service';
import { PermissionsController } from './permissions.controller';
import { PermissionsService } from './permissions.service';

@Global()
@Module({
  imports: [HealthModule, NamespacesModule],
  controllers: [PermissionsController],
  providers: [Authorizer, Denials, PermissionsService],
  exports: [Authorizer, Denials],
})
export class AuthorizationModule {}

/**
 * What a caller may do, as the policy says (docs/authorization.md): `GET /auth/v1/self/permissions`
 * (PermissionsService), and the check the flags-as-code routes make per namespace (permission-check.ts). Above both
 * auth/ and authorization/: it reads the caller the guard admitted and asks the Authorizer.
 */
import { Module } from '@nestjs/common';
import { NamespacesModule } from '../namespaces/namespaces.module';
import { PermissionsController } from './permissions.controller';
import { PermissionsService } from './permissions.service';

@Module({
  imports: [NamespacesModule],
  controllers: [PermissionsController],
  providers: [PermissionsService],
})
export class PermissionsModule {}

import { Module } from '@nestjs/common';
import { FlagsModule } from '../flags/flags.module';
import { NamespaceRepository } from './namespace.repository';
import { NamespacesController } from './namespaces.controller';
import { NamespacesService } from './namespaces.service';

@Module({
  imports: [FlagsModule],
  controllers: [NamespacesController],
  providers: [NamespacesService, NamespaceRepository],
  exports: [NamespacesService, NamespaceRepository],
})
export class NamespacesModule {}

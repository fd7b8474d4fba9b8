import { Module } from '@nestjs/common';
import { RolloutsController } from './rollouts.controller';
import { RolloutsService } from './rollouts.service';

@Module({ controllers: [RolloutsController], providers: [RolloutsService] })
export class RolloutsModule {}

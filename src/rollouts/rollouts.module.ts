import { Module } from '@nestjs/common';
import { FlagsModule } from '../flags/flags.module';
import { SegmentsModule } from '../segments/segments.module';
import { RolloutRepository } from './rollout.repository';
import { RolloutsController } from './rollouts.controller';
import { RolloutsService } from './rollouts.service';

@Module({
  imports: [FlagsModule, SegmentsModule],
  controllers: [RolloutsController],
  providers: [RolloutsService, RolloutRepository],
  exports: [RolloutsService, RolloutRepository],
})
export class RolloutsModule {}

import { Module } from '@nestjs/common';
import { FlagsModule } from '../flags/flags.module';
import { SegmentsModule } from '../segments/segments.module';
import { DistributionsService } from './distributions.service';
import { RuleRepository } from './rule.repository';
import { RulesController } from './rules.controller';
import { RulesService } from './rules.service';

@Module({
  imports: [FlagsModule, SegmentsModule],
  controllers: [RulesController],
  providers: [RulesService, DistributionsService, RuleRepository],
  exports: [DistributionsService, RuleRepository],
})
export class RulesModule {}

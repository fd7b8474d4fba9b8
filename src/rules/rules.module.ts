import { Module } from '@nestjs/common';
import { DistributionsService } from './distributions.service';
import { RulesController } from './rules.controller';
import { RulesService } from './rules.service';

@Module({ controllers: [RulesController], providers: [RulesService, DistributionsService] })
export class RulesModule {}

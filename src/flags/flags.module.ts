import { Module } from '@nestjs/common';
import { FlagRepository } from './flag.repository';
import { FlagsController } from './flags.controller';
import { FlagsService } from './flags.service';
import { VariantsService } from './variants.service';

@Module({ controllers: [FlagsController], providers: [FlagsService, VariantsService, FlagRepository], exports: [FlagRepository, FlagsService] })
export class FlagsModule {}

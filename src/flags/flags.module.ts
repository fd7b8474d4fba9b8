import { Module } from '@nestjs/common';
import { FlagsController } from './flags.controller';
import { FlagsService } from './flags.service';
import { VariantsService } from './variants.service';

@Module({ controllers: [FlagsController], providers: [FlagsService, VariantsService] })
export class FlagsModule {}

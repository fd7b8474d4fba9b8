import { Module } from '@nestjs/common';
import { FlagsAsCodeController } from './flags-as-code.controller';
import { FlagsAsCodeService } from './flags-as-code.service';

@Module({ controllers: [FlagsAsCodeController], providers: [FlagsAsCodeService], exports: [FlagsAsCodeService] })
export class FlagsAsCodeModule {}

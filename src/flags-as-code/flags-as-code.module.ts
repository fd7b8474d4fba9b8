import { Module } from '@nestjs/common';
import { FlagsAsCodeController } from './flags-as-code.controller';
import { DocumentReadingProcess } from './document-reading.service';
import { FlagsAsCodeService } from './flags-as-code.service';

@Module({ controllers: [FlagsAsCodeController], providers: [FlagsAsCodeService, DocumentReadingProcess], exports: [FlagsAsCodeService] })
export class FlagsAsCodeModule {}

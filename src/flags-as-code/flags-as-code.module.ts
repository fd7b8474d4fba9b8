import { Module } from '@nestjs/common';
import { FlagsAsCodeController } from './flags-as-code.controller';
import { DocumentReadingThread } from './document-reading.service';
import { FlagsAsCodeService } from './flags-as-code.service';

@Module({ controllers: [FlagsAsCodeController], providers: [FlagsAsCodeService, DocumentReadingThread], exports: [FlagsAsCodeService] })
export class FlagsAsCodeModule {}

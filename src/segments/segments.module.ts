import { Module } from '@nestjs/common';
import { ConstraintsService } from './constraints.service';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';

@Module({ controllers: [SegmentsController], providers: [SegmentsService, ConstraintsService] })
export class SegmentsModule {}

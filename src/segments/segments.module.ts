import { Module } from '@nestjs/common';
import { ConstraintsService } from './constraints.service';
import { SegmentRepository } from './segment.repository';
import { SegmentsController } from './segments.controller';
import { SegmentsService } from './segments.service';

@Module({
  controllers: [SegmentsController],
  providers: [SegmentsService, ConstraintsService, SegmentRepository],
  exports: [SegmentRepository],
})
export class SegmentsModule {}

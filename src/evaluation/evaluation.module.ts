import { Module } from '@nestjs/common';
import { EvaluationController } from './evaluation.controller';
import { EvaluationService } from './evaluation.service';
import { SnapshotCache } from './snapshot-cache.service';
import { SnapshotController } from './snapshot.controller';

@Module({ controllers: [EvaluationController, SnapshotController], providers: [EvaluationService, SnapshotCache], exports: [SnapshotCache, EvaluationService] })
export class EvaluationModule {}

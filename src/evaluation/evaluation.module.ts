import { Module } from '@nestjs/common';
import { ChangeStreams } from './change-streams.service';
import { EvaluationController } from './evaluation.controller';
import { EvaluationService } from './evaluation.service';
import { SnapshotCache } from './snapshot-cache.service';
import { SnapshotController } from './snapshot.controller';

@Module({ controllers: [EvaluationController, SnapshotController], providers: [EvaluationService, SnapshotCache, ChangeStreams], exports: [SnapshotCache, EvaluationService, ChangeStreams] })
export class EvaluationModule {}

import { Module } from '@nestjs/common';
import { EvaluationModule } from '../evaluation/evaluation.module';
import { OfrepController } from './ofrep.controller';
import { OfrepService } from './ofrep.service';

/** OFREP (`/ofrep/v1/...`): evaluations through the evaluation module's service and snapshots. */
@Module({ imports: [EvaluationModule], controllers: [OfrepController], providers: [OfrepService] })
export class OfrepModule {}

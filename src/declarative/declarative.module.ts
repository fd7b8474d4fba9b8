import { Module } from '@nestjs/common';
import { HealthModule } from '../health/health.module';
import { DeclarativeStorage } from './declarative-storage.service';

/** `storage.type: local`: flag state mirrored from files, the API read-only. Idle with `storage.type: database`. */
@Module({ imports: [HealthModule], providers: [DeclarativeStorage], exports: [DeclarativeStorage] })
export class DeclarativeModule {}

import { DynamicModule, Global, Module } from '@nestjs/common';
import type { EntityClass } from '@mikro-orm/core';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Database } from './database.service';
import { DATABASE_SETTINGS, MigrationRunner } from './migration-runner';
import { Changes } from './changes';
import { DatabaseSettings, ormOptions } from './orm-options';

@Global()
@Module({})
export class StorageModule {
  /** `entities`: the application's entity classes (src/entities.ts): storage names no feature's entity itself. */
  static forRoot(db: DatabaseSettings, entities: readonly EntityClass<object>[]): DynamicModule {
    return {
      module: StorageModule,
      // No request-context middleware: it costs every route (evaluation included) a fork; services fork explicitly.
      imports: [MikroOrmModule.forRoot({ ...ormOptions(db, entities), registerRequestContext: false })],
      providers: [Database, Changes, MigrationRunner, { provide: DATABASE_SETTINGS, useValue: db }],
      exports: [Database, Changes],
    };
  }
}

/**
 * Authentication: the one guard (APP_GUARD) composing the Passport strategies, the `/auth/v1` API, every method of
 * methods/index.ts (their controllers mounted only while they are enabled, as Flipt mounts a method's routes), and
 * the cleanup task.
 */
import { DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { FlagpoleConfig } from '../config/config.types';
import { AUTH_METHODS } from './auth-method';
import { AuthController } from './auth.controller';
import { AuthGuard } from './auth.guard';
import { AuthService } from './auth.service';
import { AuthenticationStore } from './authentication.store';
import { ClientTokenStrategy } from './client-token.strategy';
import { METHODS } from './methods';
import { OperationLocks } from './operation-lock.service';
import { TokenCleanupTask } from './token-cleanup.task';

@Module({})
export class AuthModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    const enabled = METHODS.filter((m) => config.authentication.methods[m.name].enabled);
    return {
      module: AuthModule,
      imports: [ScheduleModule.forRoot()],
      controllers: [AuthController, ...enabled.flatMap((m) => m.controllers ?? [])],
      providers: [
        AuthenticationStore,
        OperationLocks,
        AuthService,
        TokenCleanupTask,
        ...METHODS.map((m) => m.method),
        // Every strategy the guard names is registered with Passport, whether its method is enabled or not.
        ClientTokenStrategy,
        ...METHODS.flatMap((m) => (m.strategy ? [m.strategy] : [])),
        { provide: AUTH_METHODS, useFactory: (...methods: unknown[]) => methods, inject: METHODS.map((m) => m.method) },
        ...enabled.flatMap((m) => m.providers ?? []),
        // Also injectable by class: the evaluation fast path runs the same guard instance.
        AuthGuard,
        { provide: APP_GUARD, useExisting: AuthGuard },
      ],
    };
  }
}

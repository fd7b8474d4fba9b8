/**
 * Authentication: the one guard (APP_GUARD) composing the Passport strategies, the `/auth/v1` API, every method of
 * methods/index.ts (their controllers and strategies mounted only while they are enabled, as Flipt mounts a method's
 * routes and interceptors), and the cleanup task.
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
import { AUTH_STRATEGIES, type NamedStrategy } from './auth-strategies';
import { CLIENT_TOKEN_STRATEGY, ClientTokenStrategy } from './client-token.strategy';
import { METHODS } from './methods';
import { OperationLocks } from './operation-lock.service';
import { STREAM_TICKET_STRATEGY, StreamTicketStrategy } from './stream-ticket.strategy';
import { TokenCleanupTask } from './token-cleanup.task';

@Module({})
export class AuthModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    const enabled = METHODS.filter((m) => config.authentication.methods[m.name].enabled);
    const strategies = enabled.flatMap((m) => (m.strategy ? [{ name: m.name, type: m.strategy }] : []));
    return {
      module: AuthModule,
      // Global for its store of authentications: scheduled changes check their author's token again when they apply.
      global: true,
      exports: [AuthenticationStore],
      imports: [ScheduleModule.forRoot()],
      controllers: [AuthController, ...enabled.flatMap((m) => m.controllers ?? [])],
      providers: [
        AuthenticationStore,
        OperationLocks,
        AuthService,
        TokenCleanupTask,
        ...METHODS.map((m) => m.method),
        { provide: AUTH_METHODS, useFactory: (...methods: unknown[]) => methods, inject: METHODS.map((m) => m.method) },
        ...enabled.flatMap((m) => m.providers ?? []),
        // The strategies the guard composes, in the order Passport tries them: stream tickets (on the routes that
        // accept them, a ticket decides alone), per-request methods, then client tokens.
        StreamTicketStrategy,
        ...strategies.map((s) => s.type),
        ClientTokenStrategy,
        {
          provide: AUTH_STRATEGIES,
          useFactory: (...instances: NamedStrategy['strategy'][]): NamedStrategy[] =>
            [STREAM_TICKET_STRATEGY, ...strategies.map((s) => s.name), CLIENT_TOKEN_STRATEGY].map((name, i) => ({ name, strategy: instances[i] })),
          inject: [StreamTicketStrategy, ...strategies.map((s) => s.type), ClientTokenStrategy],
        },
        // Also injectable by class: the evaluation fast path and the check before the body run the same guard.
        AuthGuard,
        { provide: APP_GUARD, useExisting: AuthGuard },
      ],
    };
  }
}

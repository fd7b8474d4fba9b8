/**
 * Serves the web UI at `/` when `ui.enabled` (the default); see ui-assets.ts and docs/ui.md. The routes are plain
 * Fastify routes, not Nest controllers: static files are no API operation and stay out of the OpenAPI document.
 */
import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { CONFIG } from '../config/config.tokens';
import type { FlagpoleConfig } from '../config/config.types';
import { registerUi } from './ui-assets';

@Injectable()
export class UiRoutes implements OnModuleInit {
  constructor(
    private readonly adapter: HttpAdapterHost,
    @Inject(CONFIG) private readonly config: FlagpoleConfig,
  ) {}

  onModuleInit(): void {
    if (!this.config.ui.enabled) return;
    registerUi(this.adapter.httpAdapter.getInstance<FastifyInstance>());
  }
}

@Module({ providers: [UiRoutes] })
export class UiModule {}

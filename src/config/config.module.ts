import { DynamicModule, Global, Inject, Module } from '@nestjs/common';
import { CONFIG } from './config.tokens';
import type { FlagpoleConfig } from './config.types';

/**
 * Makes the configuration injectable everywhere as `@Inject(CONFIG)` (or `@InjectConfig()`). The configuration is
 * loaded and validated before Nest starts (main.ts calls loadConfigurationWithWarnings, src/configuration.ts), so a bad one stops start-up with one message
 * and this module only hands the result over.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: FlagpoleConfig): DynamicModule {
    return {
      module: ConfigModule,
      global: true,
      providers: [{ provide: CONFIG, useValue: config }],
      exports: [CONFIG],
    };
  }
}

/** `constructor(@InjectConfig() private readonly config: FlagpoleConfig)`. */
export const InjectConfig = (): ParameterDecorator & PropertyDecorator => Inject(CONFIG);

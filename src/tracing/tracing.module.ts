/**
 * Makes the application's Tracing (made by createApp, tracing.ts) and the evaluation spans injectable everywhere,
 * and sends the last spans as the application closes.
 */
import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { EvaluationSpans } from './evaluation-spans';
import { Tracing } from './tracing';

@Global()
@Module({})
export class TracingModule implements OnApplicationShutdown {
  constructor(@Inject(Tracing) private readonly tracing: Tracing) {}

  static forRoot(tracing: Tracing): DynamicModule {
    return {
      module: TracingModule,
      providers: [{ provide: Tracing, useValue: tracing }, EvaluationSpans],
      exports: [Tracing, EvaluationSpans],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.tracing.shutdown();
  }
}

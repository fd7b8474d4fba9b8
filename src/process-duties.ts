/**
 * Starts the process duties (common/process-duty.ts) of every provider in the application, one after another, when
 * the application has been initialised and before it listens. Registered by the server's assembly only (app.module.ts):
 * the write worker's graph leaves it out, so none of its duties start there.
 */
import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { isProcessDuty } from './common/process-duty';

@Injectable()
export class ProcessDuties implements OnApplicationBootstrap {
  constructor(private readonly discovery: DiscoveryService) {}

  async onApplicationBootstrap(): Promise<void> {
    const started = new Set<unknown>();
    for (const { instance } of this.discovery.getProviders()) {
      if (!isProcessDuty(instance) || started.has(instance)) continue;
      started.add(instance);
      await instance.start();
    }
  }
}

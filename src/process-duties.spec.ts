import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { ProcessDuty, type ProcessDutyProvider } from './common/process-duty';
import { ProcessDuties } from './process-duties';

const started: string[] = [];

@ProcessDuty()
@Injectable()
class Poller implements ProcessDutyProvider {
  start(): void {
    started.push('poller');
  }
}

@ProcessDuty()
@Injectable()
class Listener implements ProcessDutyProvider {
  async start(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    started.push('listener');
  }
}

@Injectable()
class NotADuty {
  start(): void {
    started.push('not a duty');
  }
}

@Module({ providers: [Poller, Listener, NotADuty], exports: [Poller] })
class FeatureModule {}

@Module({ imports: [FeatureModule], providers: [Poller] })
class OtherFeatureModule {}

async function application(withDuties: boolean): Promise<void> {
  started.length = 0;
  const moduleRef = await Test.createTestingModule({
    imports: [FeatureModule, OtherFeatureModule, ...(withDuties ? [DiscoveryModule] : [])],
    providers: withDuties ? [ProcessDuties] : [],
  }).compile();
  await moduleRef.init();
  await moduleRef.close();
}

describe('process duties', () => {
  it('the server\'s assembly starts each marked provider once per instance, waiting for each, and nothing unmarked', async () => {
    await application(true);
    // OtherFeatureModule declares its own Poller: a second instance, started too.
    expect(started.sort()).toEqual(['listener', 'poller', 'poller']);
  });

  it('an assembly without ProcessDuties (the write worker\'s) starts none', async () => {
    await application(false);
    expect(started).toEqual([]);
  });
});

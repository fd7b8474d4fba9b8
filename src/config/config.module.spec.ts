import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { loadConfig } from './config.loader';
import { ConfigModule, InjectConfig } from './config.module';
import { CONFIG } from './config.tokens';
import type { FlagpoleConfig } from './config.types';

@Injectable()
class NeedsConfig {
  constructor(@InjectConfig() readonly config: FlagpoleConfig) {}
}

describe('ConfigModule.forRoot', () => {
  it('provides the loaded configuration under CONFIG, globally', async () => {
    const config = loadConfig({ argv: [], env: { FLAGPOLE_SERVER_HTTP_PORT: '0' } });
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config)], providers: [NeedsConfig] }).compile();
    expect(moduleRef.get(CONFIG)).toBe(config);
    expect(moduleRef.get(NeedsConfig).config.server.httpPort).toBe(0);
    await moduleRef.close();
  });
});

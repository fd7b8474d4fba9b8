import type { RedisCacheConfig } from '../config/config.types';
import { describeRedis, reconnectDelay, redisClientOptions, redisPrefix } from './redis-options';

const base: RedisCacheConfig = {
  url: '', host: 'cache.internal', port: 6380, requireTLS: false, username: '', password: '', db: 2, prefix: '', poolSize: 0,
  minIdleConn: 0, connMaxIdleTime: 0, netTimeout: 0, caCertBytes: '', caCertPath: '', insecureSkipTLS: false, mode: 'single',
};

describe('redisClientOptions', () => {
  it.each<[string, Partial<RedisCacheConfig>, Record<string, unknown>]>([
    ['host, port and db', {}, { database: 2, socket: expect.objectContaining({ host: 'cache.internal', port: 6380, connectTimeout: 2000 }) }],
    ['credentials', { username: 'app', password: 's3cret' }, { username: 'app', password: 's3cret' }],
    ['TLS with a CA and verification off', { requireTLS: true, caCertBytes: 'PEM', insecureSkipTLS: true },
      { socket: expect.objectContaining({ tls: true, ca: 'PEM', rejectUnauthorized: false }) }],
    ['net_timeout bounds connect and socket', { netTimeout: 750 }, { socket: expect.objectContaining({ connectTimeout: 750, socketTimeout: 750 }) }],
    ['a URL replaces host, credentials and db', { url: 'redis://u:p@h:1/3', password: 'ignored' }, { url: 'redis://u:p@h:1/3' }],
    ['rediss:// turns TLS on', { url: 'rediss://h:1' }, { socket: expect.objectContaining({ tls: true, rejectUnauthorized: true }) }],
  ])('%s', (_, config, expected) => {
    const options = redisClientOptions({ ...base, ...config });
    expect(options).toMatchObject({ disableOfflineQueue: true, ...expected });
    if (config.url) expect(options).not.toHaveProperty('password');
  });
});

describe('describeRedis and redisPrefix', () => {
  it('never shows credentials', () => {
    expect(describeRedis({ ...base, password: 'pw' })).toBe('cache.internal:6380 db 2');
    expect(describeRedis({ ...base, url: 'redis://user:pw@h:7/1' })).toBe('redis://h:7/1');
  });
  it('prefixes keys with flagpole unless configured', () => {
    expect(redisPrefix(base)).toBe('flagpole');
    expect(redisPrefix({ ...base, prefix: 'team-a' })).toBe('team-a');
  });
  it('reconnects fast first, then every 2 s at most', () => {
    expect([0, 1, 2, 3, 10].map(reconnectDelay)).toEqual([100, 200, 400, 800, 2000]);
  });
});

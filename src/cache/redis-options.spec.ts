import type { RedisCacheConfig } from '../config/config.types';
import { describeRedis, reconnectDelay, redisClientOptions, redisClusterOptions, redisPrefix } from './redis-options';

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

describe('redisClusterOptions', () => {
  const cluster: RedisCacheConfig = { ...base, mode: 'cluster', db: 0 };

  it("seeds from Flipt's host and port; every node gets the credentials, TLS and timeouts; masters only", () => {
    const options = redisClusterOptions({ ...cluster, username: 'app', password: 's3cret', requireTLS: true, caCertBytes: 'PEM', netTimeout: 750 });
    expect(options.rootNodes).toEqual([{ socket: { host: 'cache.internal', port: 6380 } }]);
    expect(options.defaults).toMatchObject({
      username: 'app',
      password: 's3cret',
      disableOfflineQueue: true,
      socket: expect.objectContaining({ tls: true, ca: 'PEM', rejectUnauthorized: true, connectTimeout: 750, socketTimeout: 750 }),
    });
    expect(options.useReplicas).toBe(false);
  });

  it('takes the seed and credentials from a URL, since nodes found later are reached with the defaults alone', () => {
    const options = redisClusterOptions({ ...cluster, url: 'rediss://u%40x:p%3A1@node-1:7001', password: 'ignored' });
    expect(options.rootNodes).toEqual([{ socket: { host: 'node-1', port: 7001 } }]);
    expect(options.defaults).toMatchObject({ username: 'u@x', password: 'p:1', socket: expect.objectContaining({ tls: true }) });
  });
});

describe('describeRedis and redisPrefix', () => {
  it('never shows credentials', () => {
    expect(describeRedis({ ...base, password: 'pw' })).toBe('cache.internal:6380 db 2');
    expect(describeRedis({ ...base, url: 'redis://user:pw@h:7/1' })).toBe('redis://h:7/1');
    expect(describeRedis({ ...base, mode: 'cluster', password: 'pw' })).toBe('cluster via cache.internal:6380');
    expect(describeRedis({ ...base, mode: 'cluster', url: 'rediss://user:pw@h:7' })).toBe('cluster via h:7 (TLS)');
  });
  it('prefixes keys with flagpole unless configured', () => {
    expect(redisPrefix(base)).toBe('flagpole');
    expect(redisPrefix({ ...base, prefix: 'team-a' })).toBe('team-a');
  });
  it('reconnects fast first, then every 2 s at most', () => {
    expect([0, 1, 2, 3, 10].map(reconnectDelay)).toEqual([100, 200, 400, 800, 2000]);
  });
});

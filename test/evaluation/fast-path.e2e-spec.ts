/**
 * The hot routes answer through their fast handlers (common/fast-path.ts), not Nest's pipeline, on a started server,
 * with authentication off and required. Nest's pipeline calls the controller method; a fast handler never does, so a
 * spy on each method tells which one answered. (Nest registers its routes as the application initialises, after the
 * fast handlers are bound: for a while every request went through Nest unnoticed, at twice the CPU per request.)
 */
import { EvaluationController } from '../../src/evaluation/evaluation.controller';
import { SnapshotController } from '../../src/evaluation/snapshot.controller';
import { OfrepController } from '../../src/ofrep/ofrep.controller';
import { BOOTSTRAP, TOKEN_REQUIRED, bearer } from '../auth/support';
import { http, type RunningFlagpole, startFlagpole } from '../support/flagpole';
import { openSse } from '../support/sse';

const NS = 'fast';
const request = { namespaceKey: NS, flagKey: 'on', entityId: 'e1', context: {} };

describe.each([
  ['authentication off', {}, {}],
  ['authentication required (static token)', TOKEN_REQUIRED, bearer(BOOTSTRAP)],
])('fast handlers, %s', (_mode, env: Record<string, string>, headers: Record<string, string>) => {
  let fp: RunningFlagpole;
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    // Before the application is made, so that Nest's handlers call the spies.
    for (const [type, method] of [
      [EvaluationController, 'boolean'], [EvaluationController, 'variant'], [EvaluationController, 'batch'],
      [OfrepController, 'evaluate'], [OfrepController, 'bulk'], [OfrepController, 'events'], [SnapshotController, 'stream'],
    ] as const) {
      const original = (type.prototype as unknown as Record<string, Function>)[method];
      const spy = jest.spyOn(type.prototype as never, method as never);
      // The route's declaration is metadata on the method: the spy carries it on.
      for (const key of Reflect.getMetadataKeys(original)) Reflect.defineMetadata(key, Reflect.getMetadata(key, original), spy);
      spies.push(spy);
    }
    fp = await startFlagpole(env);
    const write = (path: string, body: unknown) => http(fp.url, 'POST', path, body, headers).then((r) => expect(r.status).toBe(200));
    await write('/api/v1/namespaces', { key: NS, name: NS });
    await write(`/api/v1/namespaces/${NS}/flags`, { key: 'on', name: 'on', type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    await write(`/api/v1/namespaces/${NS}/flags`, { key: 'colour', name: 'colour', type: 'VARIANT_FLAG_TYPE', enabled: true });
  });

  afterAll(async () => {
    await fp?.close();
    for (const s of spies) s.mockRestore();
  });

  const answers = async (path: string, body: unknown, extra: Record<string, string> = {}) => {
    const r = await http(fp.url, 'POST', path, body, { ...headers, ...extra });
    expect(r.status).toBe(200);
    return r.body;
  };

  it('answers evaluations, OFREP and the change streams without calling the Nest handlers', async () => {
    expect(await answers('/evaluate/v1/boolean', request)).toMatchObject({ enabled: true, flagKey: 'on', reason: 'DEFAULT_EVALUATION_REASON' });
    expect(await answers('/evaluate/v1/variant', { ...request, flagKey: 'colour' })).toMatchObject({ match: false, flagKey: 'colour' });
    expect((await answers('/evaluate/v1/batch', { requests: [request] })).responses).toHaveLength(1);
    const ns = { 'x-flipt-namespace': NS };
    expect(await answers('/ofrep/v1/evaluate/flags/on', { context: { targetingKey: 'e1' } }, ns)).toMatchObject({ key: 'on', value: true });
    expect((await answers('/ofrep/v1/evaluate/flags', { context: { targetingKey: 'e1' } }, ns)).flags).toHaveLength(2);
    for (const path of [`/ofrep/v1/_stream/${NS}/events`, `/internal/v1/evaluation/snapshot/namespace/${NS}/stream`]) {
      const stream = await openSse(fp.url + path, headers);
      stream.close();
      expect(stream.status).toBe(200);
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('refuses a request without its credential on the fast path too', async () => {
    const r = await http(fp.url, 'POST', '/evaluate/v1/boolean', request);
    if (env.FLAGPOLE_AUTHENTICATION_REQUIRED) expect(r).toMatchObject({ status: 401, body: { code: 16, message: 'request was not authenticated' } });
    else expect(r.status).toBe(200);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});

/**
 * `PUT /auth/v1/self/expire` can only end a credential sooner: now (no `expiresAt`), or at a time no later than its
 * current expiry; a credential without expiry may set any. A later time is a 400 and changes nothing.
 */
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { expectInvalidNaming } from '../management/support';
import { Api, bearer, createToken, expectUnauthenticated, TOKEN_REQUIRED } from './support';

const HOUR = 3_600_000;
const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString();

describe('expiring oneself', () => {
  let fp: RunningFlagpole;
  let api: Api;
  beforeAll(async () => {
    fp = await startFlagpole(TOKEN_REQUIRED);
    api = client(fp.url);
  });
  afterAll(() => fp?.close());

  const expiryOf = async (token: string) => (await api.get('/auth/v1/self', undefined, bearer(token))).body.expiresAt as string | undefined;
  const expire = (token: string, query = '') => api.put(`/auth/v1/self/expire${query}`, undefined, bearer(token));

  it('refuses to move an expiry later, far or near, and keeps the expiry it had', async () => {
    const expiresAt = at(HOUR);
    const t = await createToken(api, { expiresAt });
    for (const later of ['9999-12-31T23:59:59Z', at(2 * HOUR), new Date(Date.parse(expiresAt) + 1).toISOString()]) {
      const r = await expire(t.clientToken, `?expiresAt=${later}`);
      expectInvalidNaming(r, 'expiresAt');
      expect(r.body.message).toContain('later than the current expiry');
    }
    expect(Date.parse((await expiryOf(t.clientToken))!)).toBe(Date.parse(expiresAt));
  });

  it('moves an expiry earlier, or to the same time', async () => {
    const expiresAt = at(2 * HOUR);
    const t = await createToken(api, { expiresAt });
    expect((await expire(t.clientToken, `?expiresAt=${expiresAt}`)).status).toBe(200);
    const earlier = at(HOUR);
    expect((await expire(t.clientToken, `?expiresAt=${earlier}`)).status).toBe(200);
    expect(Date.parse((await expiryOf(t.clientToken))!)).toBe(Date.parse(earlier));
    // …and not back again.
    expect((await expire(t.clientToken, `?expiresAt=${expiresAt}`)).status).toBe(400);
  });

  it('lets a credential without expiry set one, however far, but not move it later afterwards', async () => {
    const t = await createToken(api);
    expect(await expiryOf(t.clientToken)).toBeUndefined();
    expect((await expire(t.clientToken, '?expiresAt=9000-01-01T00:00:00Z')).status).toBe(200);
    expect(await expiryOf(t.clientToken)).toBe('9000-01-01T00:00:00Z');
    expect((await expire(t.clientToken, '?expiresAt=9999-01-01T00:00:00Z')).status).toBe(400);
  });

  it('still expires at once without expiresAt, and at a past time', async () => {
    const now = await createToken(api, { expiresAt: at(HOUR) });
    expect((await expire(now.clientToken)).body).toEqual({});
    expectUnauthenticated(await api.get('/auth/v1/self', undefined, bearer(now.clientToken)));
    const past = await createToken(api);
    expect((await expire(past.clientToken, '?expiresAt=2000-01-01T00:00:00Z')).status).toBe(200);
    expectUnauthenticated(await api.get('/auth/v1/self', undefined, bearer(past.clientToken)));
  });
});

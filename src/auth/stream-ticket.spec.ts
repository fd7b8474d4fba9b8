import { readTicket, signTicket, ticketExpiry } from './stream-ticket';

const key = Buffer.alloc(32, 1);
const otherKey = Buffer.alloc(32, 2);
const claims = { authenticationId: '0b7c3a52-4a43-4b8e-9f5e-0d3c7c1d2e4f', namespace: 'prod', expiresAt: 1_000 };

describe('stream tickets', () => {
  it('read back what was signed while unexpired', () => {
    expect(readTicket(key, signTicket(key, claims), 999)).toEqual(claims);
  });

  const ticket = signTicket(key, claims);
  const [payload, signature] = ticket.split('.');
  const forgedPayload = Buffer.from(JSON.stringify([claims.authenticationId, 'other', 1_000])).toString('base64url');
  it.each([
    ['expired', ticket, 1_000, 'ticket expired'],
    ['signed with another key', signTicket(otherKey, claims), 0, 'ticket signature does not verify'],
    ['another payload under the signature', `${forgedPayload}.${signature}`, 0, 'ticket signature does not verify'],
    ['a truncated signature', `${payload}.${signature.slice(0, 10)}`, 0, 'ticket signature does not verify'],
    ['no signature', payload, 0, 'malformed ticket'],
    ['empty', '', 0, 'malformed ticket'],
    ['too long', `${payload}.${'A'.repeat(3000)}`, 0, 'ticket too long'],
  ])('are refused when %s', (_what, text, now, refused) => {
    expect(readTicket(key, text, now)).toEqual({ refused });
  });

  it.each([
    // now, period, credential expiry → ticket expiry
    [1_000, 300, null, 1_500],
    [1_199, 300, null, 1_500],
    [1_200, 300, null, 1_800],
    [1_000, 300, new Date(1_100_000), 1_100],
    [1_000, 300, new Date(9_000_000), 1_500],
  ])('at %ss with a %ss period (credential expiring %s) expire at %ss', (now, period, credential, expected) => {
    expect(ticketExpiry(now, period, credential)).toBe(expected);
  });

  it('are the same within one period, so the advertised URL is stable', () => {
    const at = (now: number) => signTicket(key, { ...claims, expiresAt: ticketExpiry(now, 300, null) });
    expect(at(1_200)).toBe(at(1_499));
    expect(at(1_200)).not.toBe(at(1_500));
  });
});

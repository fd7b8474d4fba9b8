import { Method } from '../auth/auth-method';
import type { AuthenticationRecord } from '../auth/authentication.record';
import { streamCaller } from './stream-caller';

const record = (fields: Partial<AuthenticationRecord>): AuthenticationRecord => ({
  id: '', method: Method.METHOD_TOKEN, expiresAt: null, createdAt: null, updatedAt: null, metadata: {}, ...fields,
});

describe('streamCaller', () => {
  it.each<[string, AuthenticationRecord | undefined, string, string]>([
    ['a stored authentication, by its id, wherever it comes from', record({ id: 'a1' }), '10.0.0.1', 'authentication a1'],
    ['a JWT, by issuer and subject', record({ method: Method.METHOD_JWT, claims: { iss: 'https://idp', sub: 'svc' } }), '10.0.0.1', 'jwt ["https://idp","svc"]'],
    ['a JWT without issuer', record({ method: Method.METHOD_JWT, claims: { sub: 'svc' } }), '10.0.0.1', 'jwt ["","svc"]'],
    ['a JWT without subject, by address', record({ method: Method.METHOD_JWT, claims: { iss: 'https://idp' } }), '10.0.0.1', 'address 10.0.0.1'],
    ['no credential, by address', undefined, '::1', 'address ::1'],
  ])('%s', (_, authentication, address, expected) => {
    expect(streamCaller(authentication, address)).toBe(expected);
  });

  it('keeps an issuer and subject apart however they are spelt', () => {
    const a = streamCaller(record({ claims: { iss: 'a b', sub: 'c' } }), '');
    const b = streamCaller(record({ claims: { iss: 'a', sub: 'b c' } }), '');
    expect(a).not.toBe(b);
  });
});

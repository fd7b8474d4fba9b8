import { CROSS_ORIGIN_FETCH, CROSS_ORIGIN_ORIGIN, crossOriginRefusal, guardsRoute } from './cross-origin';

const trusted = new Set(['https://admin.example.com']);
const host = 'flags.example.com';

describe('crossOriginRefusal', () => {
  it.each([
    ['GET from anywhere', 'GET', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, undefined],
    ['HEAD', 'HEAD', { 'sec-fetch-site': 'cross-site' }, undefined],
    ['OPTIONS', 'OPTIONS', { origin: 'https://evil.example' }, undefined],
    ['same-origin fetch', 'POST', { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' }, undefined],
    ['user-initiated (none)', 'POST', { 'sec-fetch-site': 'none' }, undefined],
    ['cross-site fetch', 'POST', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }, CROSS_ORIGIN_FETCH],
    ['same-site is not same-origin', 'PUT', { 'sec-fetch-site': 'same-site', origin: 'https://a.example.com' }, CROSS_ORIGIN_FETCH],
    ['cross-site from a trusted origin', 'POST', { 'sec-fetch-site': 'cross-site', origin: 'https://admin.example.com' }, undefined],
    ['no browser headers (API client)', 'DELETE', {}, undefined],
    ['old browser, Origin = Host', 'POST', { origin: `https://${host}` }, undefined],
    ['old browser, other Origin', 'POST', { origin: 'https://evil.example' }, CROSS_ORIGIN_ORIGIN],
    ['old browser, port differs', 'POST', { origin: `https://${host}:8443` }, CROSS_ORIGIN_ORIGIN],
    ['old browser, trusted Origin', 'POST', { origin: 'https://admin.example.com' }, undefined],
  ])('%s', (_, method, headers, expected) => {
    expect(crossOriginRefusal(method, { host, ...headers }, trusted)).toBe(expected);
  });
});

describe('guardsRoute', () => {
  it.each([
    ['/api/v1/namespaces', true],
    ['/api/v1/namespaces/:key', true],
    ['/auth/v1/tokens/:id', true],
    ['/meta', true],
    ['/evaluate/v1/boolean', true],
    [undefined, true],
    ['/health', false],
    ['/metrics', false],
    ['/api/v10', false],
    ['/', false],
  ])('%s → %s', (route, expected) => {
    expect(guardsRoute(route)).toBe(expected);
  });
});

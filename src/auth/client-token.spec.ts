import { base64UrlPadded, generateClientToken, hashClientToken } from './client-token';

describe('client tokens', () => {
  it.each([
    // Values computed independently (`printf %s TOKEN | openssl dgst -sha256 -binary | basenc --base64url`).
    ['s3cret', 'HsHCa1DV08WNlYMYGvgHZlX-AHVr9yhZQLo2cPmfy6A='],
    ['', '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU='],
  ])('hashes %j as base64url(sha256) with padding', (token, hash) => {
    expect(hashClientToken(token)).toBe(hash);
  });

  it('makes 44-character padded base64url tokens, different each time', () => {
    const tokens = new Set(Array.from({ length: 50 }, generateClientToken));
    expect(tokens.size).toBe(50);
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}=$/);
  });

  it.each([
    [[0xfb, 0xff], '-_8='],
    [[0xfb, 0xff, 0xfe], '-__-'],
    [[0], 'AA=='],
  ])('encodes %j with the URL alphabet and keeps the padding', (bytes, text) => {
    expect(base64UrlPadded(Buffer.from(bytes))).toBe(text);
  });
});

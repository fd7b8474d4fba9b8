import { InvalidError, ValidationError } from './errors';
import { cutPage, decodePageToken, encodePageToken, resolvePage } from './pagination';

describe('page tokens', () => {
  it('encodes base64 (standard, padded) of {"key","offset"} as Flipt does', () => {
    const token = encodePageToken('flag_011', 10);
    expect(Buffer.from(token, 'base64').toString()).toBe('{"key":"flag_011","offset":10}');
    expect(token).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodePageToken(token)).toBe(10);
  });

  it.each([
    ['not base64', 'Hello World'],
    ['base64 of text', Buffer.from('hello').toString('base64')],
    ['base64 of a JSON array', Buffer.from('[1]').toString('base64')],
    ['negative offset', Buffer.from('{"offset":-1}').toString('base64')],
    ['fractional offset', Buffer.from('{"offset":1.5}').toString('base64')],
    ['string offset', Buffer.from('{"offset":"3"}').toString('base64')],
    ['offset beyond exact integers', Buffer.from('{"offset":1e20}').toString('base64')],
    ['offset of 2^53', Buffer.from('{"offset":9007199254740992}').toString('base64')],
  ])('refuses %s with Flipt\'s message', (_, token) => {
    expect(() => decodePageToken(token)).toThrow(new InvalidError(`pageToken is not valid: ${JSON.stringify(token)}`));
  });

  it('reads a token without an offset as offset 0', () => {
    expect(decodePageToken(Buffer.from('{"key":"x"}').toString('base64'))).toBe(0);
  });
});

describe('resolvePage', () => {
  it.each([
    [{}, {}, { limit: 0, offset: 0 }],
    [{ limit: 10 }, {}, { limit: 10, offset: 0 }],
    [{ limit: 10, offset: 20 }, {}, { limit: 10, offset: 20 }],
    [{ limit: 10, offset: 20, pageToken: encodePageToken('k', 5) }, {}, { limit: 10, offset: 5 }],
    [{ limit: 2, offset: 4 }, { useOffset: false }, { limit: 2, offset: 0 }],
  ])('%j %j → %j', (req, opts, expected) => {
    expect(resolvePage(req, opts)).toEqual(expected);
  });

  it('requires a limit with an offset or token where Flipt does', () => {
    const msg = 'limit must be set when offset or pageToken is set';
    expect(() => resolvePage({ offset: 3 }, { requireLimit: true })).toThrow(msg);
    expect(() => resolvePage({ pageToken: encodePageToken('k', 1) }, { requireLimit: true })).toThrow(msg);
    expect(resolvePage({ offset: 3 })).toEqual({ limit: 0, offset: 3 });
  });

  it('refuses negative numbers naming the field', () => {
    expect(() => resolvePage({ limit: -1 })).toThrow(new ValidationError('limit', 'must be greater than or equal to 0'));
    expect(() => resolvePage({ offset: -1 })).toThrow(new ValidationError('offset', 'must be greater than or equal to 0'));
  });
});

describe('cutPage', () => {
  const rows = ['a', 'b', 'c', 'd'];
  it('keeps everything without a limit', () => {
    expect(cutPage(rows, { limit: 0, offset: 0 }, (r) => r)).toEqual({ items: rows, nextPageToken: '' });
  });
  it('cuts at the limit and points the token at the next row and offset', () => {
    const page = cutPage(rows, { limit: 3, offset: 6 }, (r) => r);
    expect(page.items).toEqual(['a', 'b', 'c']);
    expect(Buffer.from(page.nextPageToken, 'base64').toString()).toBe('{"key":"d","offset":9}');
  });
  it('gives an empty token on the last page', () => {
    expect(cutPage(['a', 'b'], { limit: 3, offset: 0 }, (r) => r).nextPageToken).toBe('');
  });
});

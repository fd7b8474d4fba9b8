import { negotiateEncoding, parseAcceptEncoding } from './accept-encoding';

const OFFERED = ['br', 'gzip'] as const;

describe('negotiateEncoding', () => {
  it.each<[string | undefined, string]>([
    // no preference stated
    [undefined, 'identity'],
    ['', 'identity'],
    ['identity', 'identity'],
    // what clients send: the server's order breaks the tie
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br', 'br'],
    ['deflate', 'identity'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    // weights
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['gzip;q=0.2', 'gzip'],
    ['gzip;q=0.2, identity;q=0.5', 'identity'],
    ['gzip ; Q = 0.9 , br;q=0.1', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    // `*` covers what is not named, not what is refused by name
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['br;q=0, gzip;q=0, *', 'identity'],
    ['*;q=0.5, gzip', 'gzip'],
    // identity refused: a coding if one is acceptable, else the content as it is anyway
    ['identity;q=0, gzip;q=0.1', 'gzip'],
    ['*;q=0', 'identity'],
    ['identity;q=0', 'identity'],
    // malformed weights skip their entry only
    ['br;q=2, gzip', 'gzip'],
    ['br;q=0.5x, gzip;q=0.1', 'gzip'],
    ['br;q=.5', 'identity'],
    ['br;q=1.000, gzip', 'br'],
    ['br;q=0.0001, gzip;q=0.001', 'gzip'],
    // the same coding twice: the higher weight
    ['br;q=0, br;q=0.4, gzip;q=0.3', 'br'],
    [' , ,gzip,', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header, OFFERED)).toBe(expected);
  });

  it('offers nothing but identity when the server has no coding', () => {
    expect(negotiateEncoding('gzip, br', [])).toBe('identity');
  });
});

describe('parseAcceptEncoding', () => {
  it('reads codings lower-cased with their weights, other parameters ignored', () => {
    expect([...parseAcceptEncoding('BR;q=0.7;level=3, gzip;foo, x-gzip;q=0.2, *;q=0')]).toEqual([
      ['br', 0.7],
      ['gzip', 1],
      ['*', 0],
    ]);
  });
});

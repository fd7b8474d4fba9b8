import { headerValue } from './error.filter';

describe('WWW-Authenticate value', () => {
  it.each([
    ['request was not authenticated', 'request was not authenticated'],
    ['handling GitHub callback: abc\r\nX-Injected: 1', 'handling GitHub callback: abc  X-Injected: 1'],
    ['tab\tand NUL\u0000 and DEL\u007f', 'tab and NUL  and DEL '],
    ['café € 😀 \u0085', 'caf? ? ? ?'],
  ])('%j → %j', (message, header) => expect(headerValue(message)).toBe(header));

  it('is at most 1024 characters', () => {
    const value = headerValue('x'.repeat(20_000));
    expect(value).toHaveLength(1024);
    expect(value.endsWith('...')).toBe(true);
  });
});

import { numeric } from './dto-fields';

describe('numbers spelled as strings', () => {
  it.each([
    ['10', 10], ['-3', -3], ['+7', 7], ['1.5', 1.5], ['.5', 0.5], ['1e3', 1000], ['007', 7],
  ])('reads decimal %j as %d', (text, value) => expect(numeric(text)).toBe(value));

  it.each(['0x10', '0b1', '0o7', 'Infinity', '-Infinity', 'NaN', '', ' ', ' 5', '5 ', '1_000', '1e', '--1', '١٢'])(
    'leaves %j as text, for validation to refuse',
    (text) => expect(numeric(text)).toBe(text),
  );
});

import { camelToSnake, jsonField, jsonFieldName, snakeToCamel } from './json-fields';

describe('protobuf JSON field spellings', () => {
  it.each([
    ['flag_key', 'flagKey'],
    ['namespace_key', 'namespaceKey'],
    ['key', 'key'],
  ])('%s ↔ %s', (snake, camel) => {
    expect(snakeToCamel(snake)).toBe(camel);
    expect(camelToSnake(camel)).toBe(snake);
  });

  it.each<[string, Record<string, unknown>, unknown, string | undefined]>([
    ['the JSON name', { flagKey: 'a' }, 'a', 'flagKey'],
    ['the proto name', { flag_key: 'b' }, 'b', 'flag_key'],
    ['the JSON name over the proto name', { flagKey: 'a', flag_key: 'b' }, 'a', 'flagKey'],
    ['the proto name when the JSON name is null', { flagKey: null, flag_key: 'b' }, 'b', 'flag_key'],
    ['an empty string, which is present', { flagKey: '', flag_key: 'b' }, '', 'flagKey'],
    ['nothing when both are null', { flagKey: null, flag_key: null }, undefined, undefined],
    ['nothing when absent', {}, undefined, undefined],
  ])('reads %s', (_, o, value, name) => {
    expect(jsonField(o, 'flagKey', 'flag_key')).toBe(value);
    expect(jsonField(o, 'flagKey')).toBe(value);
    expect(jsonFieldName(o, 'flagKey', 'flag_key')).toBe(name);
  });
});

import { requestNamespace } from './request-namespace';

describe('requestNamespace', () => {
  it.each([
    ['path parameter', { params: { namespaceKey: 'prod' }, body: { namespaceKey: 'other' } }, 'prod'],
    ['body field', { params: {}, body: { namespaceKey: 'prod' } }, 'prod'],
    ['snake_case body field', { body: { namespace_key: 'prod' } }, 'prod'],
    ['camelCase wins over snake_case', { body: { namespaceKey: 'a', namespace_key: 'b' } }, 'a'],
    ['null is absent', { body: { namespaceKey: null, namespace_key: 'b' } }, 'b'],
    ['query field', { query: { namespaceKey: 'prod' } }, 'prod'],
    ['nothing → default', { params: {}, body: {}, query: {} }, 'default'],
    ['empty → default', { body: { namespaceKey: '' } }, 'default'],
    ['non-string is ignored', { body: { namespaceKey: 7 } }, 'default'],
  ])('namespaceKey: %s', (_, request, expected) => {
    expect(requestNamespace(request, 'namespaceKey')).toBe(expected);
  });

  it.each([
    ['path key', { params: { key: 'prod' } }, 'prod'],
    ['body key (create)', { body: { key: 'prod' } }, 'prod'],
    ['none → default', {}, 'default'],
  ])('key: %s', (_, request, expected) => {
    expect(requestNamespace(request, 'key')).toBe(expected);
  });

  it.each([
    ['all the same', [{ namespaceKey: 'prod' }, { namespace_key: 'prod' }], 'prod'],
    ['empty items are default', [{}, { namespaceKey: 'default' }], 'default'],
    ['mixed', [{ namespaceKey: 'prod' }, {}], null],
    ['no items', [], null],
  ])('requests: %s', (_, requests, expected) => {
    expect(requestNamespace({ body: { requests } }, 'requests')).toBe(expected);
  });

  it('a batch without a requests list names no namespace', () => {
    expect(requestNamespace({ body: {} }, 'requests')).toBeNull();
  });
});

import { requestNamespace } from './request-namespace';

describe('requestNamespace', () => {
  it.each([
    ['path parameter', { method: 'POST', params: { namespaceKey: 'prod' }, body: { namespaceKey: 'other' } }, 'prod'],
    ['path parameter over the query', { method: 'GET', params: { namespaceKey: 'prod' }, query: { namespaceKey: 'other' } }, 'prod'],
    ['body field', { method: 'POST', params: {}, body: { namespaceKey: 'prod' } }, 'prod'],
    ['PUT body field', { method: 'PUT', body: { namespaceKey: 'prod' } }, 'prod'],
    ['snake_case body field', { method: 'POST', body: { namespace_key: 'prod' } }, 'prod'],
    ['camelCase wins over snake_case', { method: 'POST', body: { namespaceKey: 'a', namespace_key: 'b' } }, 'a'],
    ['null is absent', { method: 'POST', body: { namespaceKey: null, namespace_key: 'b' } }, 'b'],
    ['query field', { method: 'GET', query: { namespaceKey: 'prod' } }, 'prod'],
    ['DELETE query field', { method: 'DELETE', query: { namespace_key: 'prod' } }, 'prod'],
    ['a POST reads no query', { method: 'POST', body: {}, query: { namespaceKey: 'prod' } }, 'default'],
    ['a DELETE reads no body', { method: 'DELETE', body: { namespaceKey: 'prod' }, query: {} }, 'default'],
    ['a GET reads no body', { method: 'GET', body: { namespaceKey: 'prod' } }, 'default'],
    ['nothing → default', { method: 'POST', params: {}, body: {}, query: {} }, 'default'],
    ['empty → default', { method: 'POST', body: { namespaceKey: '' } }, 'default'],
    ['non-string is ignored', { method: 'POST', body: { namespaceKey: 7 } }, 'default'],
  ])('namespaceKey: %s', (_, request, expected) => {
    expect(requestNamespace(request, 'namespaceKey')).toBe(expected);
  });

  it.each([
    ['path key', { method: 'GET', params: { key: 'prod' } }, 'prod'],
    ['body key (create)', { method: 'POST', body: { key: 'prod' } }, 'prod'],
    ['none → default', { method: 'GET' }, 'default'],
  ])('key: %s', (_, request, expected) => {
    expect(requestNamespace(request, 'key')).toBe(expected);
  });

  it.each([
    ['all the same', [{ namespaceKey: 'prod' }, { namespace_key: 'prod' }], 'prod'],
    ['empty items are default', [{}, { namespaceKey: 'default' }], 'default'],
    ['mixed', [{ namespaceKey: 'prod' }, {}], null],
    ['no items', [], null],
  ])('requests: %s', (_, requests, expected) => {
    expect(requestNamespace({ method: 'POST', body: { requests } }, 'requests')).toBe(expected);
  });

  it.each([
    ['X-Flipt-Namespace', { 'x-flipt-namespace': 'prod' }, 'prod'],
    ['X-Flagpole-Namespace', { 'x-flagpole-namespace': 'prod' }, 'prod'],
    ['both, agreeing', { 'x-flipt-namespace': 'prod', 'x-flagpole-namespace': 'prod' }, 'prod'],
    ['both, disagreeing', { 'x-flipt-namespace': 'prod', 'x-flagpole-namespace': 'staging' }, null],
    ['one empty', { 'x-flipt-namespace': '', 'x-flagpole-namespace': 'prod' }, 'prod'],
    ['none → default', {}, 'default'],
  ])('header: %s', (_, headers, expected) => {
    expect(requestNamespace({ method: 'POST', headers, body: { namespaceKey: 'body' } }, 'header')).toBe(expected);
  });

  it('a batch without a requests list names no namespace', () => {
    expect(requestNamespace({ method: 'POST', body: {} }, 'requests')).toBeNull();
  });

  it('answers each request once: what the guard read is what the handler gets', () => {
    const request = { method: 'POST', body: { namespaceKey: 'prod' } };
    expect(requestNamespace(request, 'namespaceKey')).toBe('prod');
    request.body.namespaceKey = 'other';
    expect(requestNamespace(request, 'namespaceKey')).toBe('prod');
  });
});

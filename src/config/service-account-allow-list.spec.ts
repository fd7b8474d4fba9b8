import { checkServiceAccountPattern, isServiceAccountAllowed, serviceAccountMatcher } from './service-account-allow-list';

describe('checkServiceAccountPattern', () => {
  it.each(['prod/flag-reader', 'prod/*', '*/flag-reader', '*/*', 'team-*/reader.v2', 'kube-system/x'])('accepts %s', (pattern) => {
    expect(checkServiceAccountPattern(pattern)).toBeUndefined();
  });

  it.each(['prod', 'prod/', '/reader', 'a/b/c', 'Prod/reader', 'prod/reader_1', 'prod/ reader', ''])('refuses %j', (pattern) => {
    expect(checkServiceAccountPattern(pattern)).toEqual(expect.any(String));
  });
});

describe('serviceAccountMatcher', () => {
  it.each<[string[], string, string, boolean]>([
    [[], 'any', 'thing', true],
    [['prod/flag-reader'], 'prod', 'flag-reader', true],
    [['prod/flag-reader'], 'prod', 'flag-writer', false],
    [['prod/flag-reader'], 'staging', 'flag-reader', false],
    [['prod/*'], 'prod', 'anything', true],
    [['prod/*'], 'production', 'anything', false],
    [['*/flag-reader'], 'staging', 'flag-reader', true],
    [['team-*/*'], 'team-a', 'x', true],
    [['team-*/*'], 'teams', 'x', false],
    [['prod/reader.v2'], 'prod', 'readerxv2', false],
    [['a/b', 'c/*'], 'c', 'z', true],
  ])('%j admits %s/%s: %s', (patterns, namespace, name, admitted) => {
    expect(serviceAccountMatcher(patterns)(namespace, name)).toBe(admitted);
    expect(isServiceAccountAllowed(patterns, namespace, name)).toBe(admitted);
  });
});

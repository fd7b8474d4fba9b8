import { ValidationError } from '../common/errors';
import { lifecycleMarkers, validateLifecycleMetadata } from './lifecycle-metadata';

describe('validateLifecycleMetadata', () => {
  it.each<[string, Record<string, unknown> | undefined]>([
    ['no metadata', undefined],
    ['other keys only', { owner: 'a' }],
    ['an empty marker', { flagpole: {} }],
    ['every kind', { flagpole: { kind: 'kill_switch', archived: false } }],
  ])('takes %s', (_name, metadata) => {
    expect(() => validateLifecycleMetadata(metadata)).not.toThrow();
  });

  it.each<[unknown, string]>([
    [null, 'invalid field metadata.flagpole: must be an object with kind and archived'],
    ['release', 'invalid field metadata.flagpole: must be an object with kind and archived'],
    [[], 'invalid field metadata.flagpole: must be an object with kind and archived'],
    [{ kind: 'forever' }, 'invalid field metadata.flagpole.kind: must be one of release, experiment, operational, kill_switch, permission'],
    [{ kind: null }, 'invalid field metadata.flagpole.kind: must be one of release, experiment, operational, kill_switch, permission'],
    [{ archived: 1 }, 'invalid field metadata.flagpole.archived: must be a boolean'],
    [{ owner: 'me' }, 'invalid field metadata.flagpole.owner: is not a known field (kind, archived)'],
  ])('refuses %j', (value, message) => {
    expect(() => validateLifecycleMetadata({ flagpole: value })).toThrow(new ValidationError('x', 'y').constructor as never);
    expect(() => validateLifecycleMetadata({ flagpole: value })).toThrow(message);
  });
});

describe('lifecycleMarkers', () => {
  it.each<[string | null, ReturnType<typeof lifecycleMarkers>]>([
    [null, { archived: false }],
    ['{"owner":"a"}', { archived: false }],
    ['{"flagpole":{"kind":"experiment","archived":true}}', { kind: 'experiment', archived: true }],
    // Imported without the route's checks: what cannot be read is absent.
    ['{"flagpole":{"kind":"forever","archived":"yes"}}', { archived: false }],
    ['{"flagpole":null}', { archived: false }],
    ['{"flagpole":', { archived: false }],
  ])('%s', (text, expected) => {
    expect(lifecycleMarkers(text)).toEqual(expected);
  });
});

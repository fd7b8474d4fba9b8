/**
 * OpenFeature's server SDK with @openfeature/flipt-provider 0.1.0, unchanged, against Flagpole (clients.md A2):
 * boolean / string / number / object values and the reasons the provider maps Flipt's answers to, its context
 * transformation (every value stringified, targetingKey → entityId) and errors (reason ERROR, code GENERAL).
 */
import { Client, ErrorCode, OpenFeature, StandardResolutionReasons } from '@openfeature/server-sdk';
import { FliptProvider } from '@openfeature/flipt-provider';
import { client, RunningFlagpole, startFlagpole } from '../support/flagpole';
import { buildNamespace, thresholdBucket } from './fixtures';

const NS = 'of';

describe('OpenFeature + @openfeature/flipt-provider', () => {
  let fp: RunningFlagpole;
  let of: Client;

  beforeAll(async () => {
    fp = await startFlagpole();
    await buildNamespace(client(fp.url), {
      key: NS,
      segments: [
        { key: 'adults', constraints: [{ type: 'NUMBER_COMPARISON_TYPE', property: 'age', operator: 'gte', value: '18' }] },
        { key: 'beta', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'beta', operator: 'true' }] },
        { key: 'everyone' },
      ],
      flags: [
        { key: 'of-bool', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ segment: { segments: ['adults'], value: true } }] },
        { key: 'of-bool-on', type: 'BOOLEAN_FLAG_TYPE', enabled: true },
        { key: 'of-bool-threshold', type: 'BOOLEAN_FLAG_TYPE', enabled: false, rollouts: [{ threshold: { percentage: 50, value: true } }] },
        { key: 'of-string', variants: [{ key: 'blue' }, { key: 'green' }], rules: [{ segments: ['beta'], distributions: [['green', 100]] }] },
        { key: 'of-number', variants: [{ key: '42.5' }], rules: [{ segments: ['everyone'], distributions: [['42.5', 100]] }] },
        { key: 'of-bad-number', variants: [{ key: 'abc' }], rules: [{ segments: ['everyone'], distributions: [['abc', 100]] }] },
        {
          key: 'of-object',
          variants: [{ key: 'conf', attachment: '{"retries": 3, "nested": {"a": [1, 2]}}' }],
          rules: [{ segments: ['everyone'], distributions: [['conf', 100]] }],
        },
        { key: 'of-no-attachment', variants: [{ key: 'plain' }], rules: [{ segments: ['everyone'], distributions: [['plain', 100]] }] },
        { key: 'of-disabled', enabled: false, variants: [{ key: 'x' }], rules: [{ segments: ['everyone'], distributions: [['x', 100]] }] },
        { key: 'of-default', variants: [{ key: 'fallback' }], defaultVariant: 'fallback' },
      ],
    });
    await OpenFeature.setProviderAndWait(new FliptProvider(NS, { url: fp.url }));
    of = OpenFeature.getClient();
  });
  afterAll(async () => {
    await OpenFeature.close();
    await fp?.close();
  });

  describe('boolean', () => {
    it('a segment match (context numbers are stringified by the provider) → true, TARGETING_MATCH', async () => {
      const d = await of.getBooleanDetails('of-bool', false, { targetingKey: 'user-1', age: 21 });
      expect(d).toMatchObject({ value: true, reason: StandardResolutionReasons.TARGETING_MATCH });
      expect(d.errorCode).toBeUndefined();
    });

    it('Flipt DEFAULT → flag.enabled, reported as TARGETING_MATCH (provider quirk)', async () => {
      expect(await of.getBooleanDetails('of-bool', true, { targetingKey: 'user-1', age: 12 })).toMatchObject({
        value: false, reason: StandardResolutionReasons.TARGETING_MATCH,
      });
      expect(await of.getBooleanDetails('of-bool-on', false, { targetingKey: 'user-1' })).toMatchObject({
        value: true, reason: StandardResolutionReasons.TARGETING_MATCH,
      });
      expect(await of.getBooleanValue('of-bool-on', false)).toBe(true);
    });

    it('threshold on the targeting key; an absent targeting key is entityId ""', async () => {
      for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) {
        expect(await of.getBooleanValue('of-bool-threshold', false, { targetingKey: id })).toBe(thresholdBucket(id, 'of-bool-threshold') < 50);
      }
      expect(await of.getBooleanValue('of-bool-threshold', false, {})).toBe(thresholdBucket('', 'of-bool-threshold') < 50);
    });
  });

  describe('string', () => {
    it('match → variant key, TARGETING_MATCH (a boolean context value arrives as "true")', async () => {
      expect(await of.getStringDetails('of-string', 'none', { targetingKey: 'u', beta: true })).toMatchObject({
        value: 'green', reason: StandardResolutionReasons.TARGETING_MATCH,
      });
    });

    it('no match → the caller’s default, DEFAULT', async () => {
      expect(await of.getStringDetails('of-string', 'none', { targetingKey: 'u', beta: false })).toMatchObject({
        value: 'none', reason: StandardResolutionReasons.DEFAULT,
      });
      // Flipt's default variant is not a match, so the provider still returns the caller's default
      expect(await of.getStringDetails('of-default', 'mine', { targetingKey: 'u' })).toMatchObject({
        value: 'mine', reason: StandardResolutionReasons.DEFAULT,
      });
    });

    it('disabled flag → the caller’s default, DISABLED', async () => {
      expect(await of.getStringDetails('of-disabled', 'none', { targetingKey: 'u' })).toMatchObject({
        value: 'none', reason: StandardResolutionReasons.DISABLED,
      });
    });
  });

  describe('number', () => {
    it('parseFloat of the variant key', async () => {
      expect(await of.getNumberDetails('of-number', 0, { targetingKey: 'u' })).toMatchObject({ value: 42.5, reason: StandardResolutionReasons.TARGETING_MATCH });
    });

    it('a non-numeric variant key → TYPE_MISMATCH, default value', async () => {
      expect(await of.getNumberDetails('of-bad-number', 7, { targetingKey: 'u' })).toMatchObject({
        value: 7, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.TYPE_MISMATCH,
      });
    });
  });

  describe('object', () => {
    it('the variant attachment, parsed', async () => {
      expect(await of.getObjectDetails('of-object', {}, { targetingKey: 'u' })).toMatchObject({
        value: { retries: 3, nested: { a: [1, 2] } }, reason: StandardResolutionReasons.TARGETING_MATCH,
      });
    });

    it('a variant without attachment → TYPE_MISMATCH, default value', async () => {
      expect(await of.getObjectDetails('of-no-attachment', { d: 1 }, { targetingKey: 'u' })).toMatchObject({
        value: { d: 1 }, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.TYPE_MISMATCH,
      });
    });
  });

  describe('errors', () => {
    it('missing flag → default value, ERROR, GENERAL with Flipt’s message', async () => {
      const b = await of.getBooleanDetails('missing', true, { targetingKey: 'u' });
      expect(b).toMatchObject({ value: true, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.GENERAL });
      expect(b.errorMessage).toBe(`flag "${NS}/missing" not found`);
      const s = await of.getStringDetails('missing', 'dflt', { targetingKey: 'u' });
      expect(s).toMatchObject({ value: 'dflt', reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.GENERAL });
    });

    it('wrong flag type → ERROR, GENERAL with Flipt’s message', async () => {
      const b = await of.getBooleanDetails('of-string', false, { targetingKey: 'u' });
      expect(b).toMatchObject({ value: false, reason: StandardResolutionReasons.ERROR, errorCode: ErrorCode.GENERAL });
      expect(b.errorMessage).toBe('flag type VARIANT_FLAG_TYPE invalid');
      const s = await of.getStringDetails('of-bool', 'x', { targetingKey: 'u' });
      expect(s.errorMessage).toBe('flag type BOOLEAN_FLAG_TYPE invalid');
    });

    it('an object in the context is sent as "[object Object]" and does not break evaluation', async () => {
      expect(await of.getBooleanDetails('of-bool', false, { targetingKey: 'u', age: { years: 30 } as any })).toMatchObject({
        value: false, reason: StandardResolutionReasons.TARGETING_MATCH,
      });
    });
  });
});

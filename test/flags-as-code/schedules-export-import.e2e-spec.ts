/**
 * Scheduled changes in flags-as-code documents (issue 41; docs/flags-as-code.md, Scheduled changes): Flagpole's
 * `x-flagpole-schedules` key. Export leaves it out unless asked; asked, it lists the open schedules with their pending
 * steps, rollouts and rules by rank; an import into another Flagpole creates equivalent schedules (by the importer)
 * that then apply; a bad schedule refuses the whole document at its place; `drop` cancels the namespace's open
 * schedules; a Flipt document imports as before. Two instances, each with its own database (every dialect).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { bearer, BOOTSTRAP, createToken, TOKEN_REQUIRED, type Api } from '../auth/support';
import {
  createDistribution, createFlag, createNamespace, createRollout, createRule, createSegment, createVariant, N, ok,
} from '../management/support';
import { client, http, startFlagpole, type RunningFlagpole } from '../support/flagpole';
import { at, createSchedule, DAY, HOUR, setClock, T, thresholdOf, tick, type Schedule } from '../schedules/support';

const YAML = { 'content-type': 'application/yaml' };
const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');
const KEY = 'x-flagpole-schedules';

describe('flags as code: scheduled changes in export and import', () => {
  let source: RunningFlagpole;
  let target: RunningFlagpole;
  let api: Api;
  let importer: Api;
  let targetToken: string;

  const exportText = async (fp: RunningFlagpole, ns: string, query = '') => {
    const r = await http(fp.url, 'GET', `${N(ns)}/export${query}`);
    expect(r.status).toBe(200);
    return r.text;
  };
  const importInto = (ns: string, text: string, query = '') =>
    http(target.url, 'POST', `${N(ns)}/import${query}`, text, { ...YAML, authorization: `Bearer ${targetToken}` });
  const listed = async (who: Api, ns: string) => ok<{ schedules: Schedule[] }>(await who.get(`${N(ns)}/schedules`)).schedules;

  beforeAll(async () => {
    [source, target] = await Promise.all([
      startFlagpole(),
      startFlagpole({ ...TOKEN_REQUIRED, FLAGPOLE_SCHEDULES_MAX_ACTIVE_PER_FLAG: '2' }),
    ]);
    api = client(source.url);
    targetToken = (await createToken(client(target.url, bearer(BOOTSTRAP)), { name: 'importer' })).clientToken;
    importer = client(target.url, bearer(targetToken));

    // In `shop`: a boolean flag with a segment rollout (rank 1) and a threshold rollout (rank 2); a variant flag with
    // two rules, each splitting blue and green.
    await createNamespace(api, 'shop');
    await createSegment(api, 'shop', 'staff', { matchType: 'ALL_MATCH_TYPE' });
    await createFlag(api, 'shop', 'checkout', { type: 'BOOLEAN_FLAG_TYPE', enabled: false });
    await createRollout(api, 'shop', 'checkout', { rank: 1, segment: { segmentKey: 'staff', value: true } });
    const ramp = (await createRollout(api, 'shop', 'checkout', { rank: 2, threshold: { percentage: 10, value: true } })).id;
    await createFlag(api, 'shop', 'colour', { enabled: true });
    for (const key of ['blue', 'green']) await createVariant(api, 'shop', 'colour', key);
    const variants = ok(await api.get(`${N('shop')}/flags/colour`)).variants as Array<{ id: string; key: string }>;
    const rules: string[] = [];
    for (const rank of [1, 2]) {
      const rule = (await createRule(api, 'shop', 'colour', { segmentKey: 'staff', rank })).id;
      for (const v of variants) await createDistribution(api, 'shop', 'colour', rule, { variantId: v.id, rollout: 50 });
      rules.push(rule);
    }

    // A progressive rollout whose first step applied (only the two pending ones are exported) …
    const progressive = await createSchedule(api, 'shop', 'checkout', {
      type: 'ROLLOUT_THRESHOLD', rolloutId: ramp, description: 'ramp up',
      steps: [{ at: at(0), percentage: 25 }, { at: at(DAY), deadline: at(DAY + HOUR), percentage: 50 }, { at: at(2 * DAY), percentage: 100 }],
    });
    setClock(source, T);
    await tick(source);
    jest.restoreAllMocks();
    expect(await thresholdOf(api, 'shop', 'checkout', ramp)).toBe(25);
    expect(progressive.steps).toHaveLength(3);
    // … a paused change of the second rule's split …
    const split = await createSchedule(api, 'shop', 'colour', {
      type: 'RULE_DISTRIBUTIONS', ruleId: rules[1],
      steps: [{ at: at(HOUR), distributions: [{ variantKey: 'blue', rollout: 20 }, { variantKey: 'green', rollout: 80 }] }],
    });
    ok(await api.post(`${N('shop')}/flags/colour/schedules/${split.id}/pause`, {}));
    // … and a cancelled one, which is not exported.
    const cancelled = await createSchedule(api, 'shop', 'checkout', { type: 'FLAG_ENABLED', steps: [{ at: at(HOUR), enabled: true }] });
    ok(await api.delete(`${N('shop')}/flags/checkout/schedules/${cancelled.id}`));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });
  afterEach(() => jest.restoreAllMocks());

  const EXPORTED = [
    {
      flag: 'checkout', type: 'ROLLOUT_THRESHOLD', rollout: 2, description: 'ramp up',
      steps: [{ at: at(DAY), deadline: at(DAY + HOUR), percentage: 50 }, { at: at(2 * DAY), percentage: 100 }],
    },
    {
      flag: 'colour', type: 'RULE_DISTRIBUTIONS', rule: 2, paused: true,
      steps: [{ at: at(HOUR), distributions: [{ variant: 'blue', rollout: 20 }, { variant: 'green', rollout: 80 }] }],
    },
  ];

  it('an export leaves schedules out unless asked', async () => {
    const plain = await exportText(source, 'shop');
    expect(plain).not.toContain(KEY);
    expect(await exportText(source, 'shop', '?schedules=false')).toBe(plain);
    expect(await exportText(source, 'shop', '?format=json')).not.toContain(KEY);
  });

  it('asked, it lists the open schedules, oldest first, with their pending steps and their targets by rank, after Flipt\'s keys', async () => {
    const yaml = await exportText(source, 'shop', '?schedules=true');
    const doc = parseYaml(yaml) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['version', 'namespace', 'flags', 'segments', KEY]);
    expect(doc[KEY]).toEqual(EXPORTED);
    // The rest is the export without schedules, byte for byte.
    expect(yaml.slice(0, yaml.indexOf(`${KEY}:`))).toBe(await exportText(source, 'shop'));

    const json = JSON.parse(await exportText(source, 'shop', '?format=json&schedules=true'));
    expect(json[KEY]).toEqual(EXPORTED);
  });

  it('imported into another Flagpole, they are equivalent schedules by the importer, on the new ids, and apply', async () => {
    const summary = ok(await importInto('shop', await exportText(source, 'shop', '?schedules=true')));
    expect(summary).toMatchObject({ namespaceCreated: true, flagsCreated: 2, schedulesCreated: 2, schedulesSkipped: 0 });

    const rollouts = ok(await importer.get(`${N('shop')}/flags/checkout/rollouts`)).rules as Array<{ id: string }>;
    const rules = ok(await importer.get(`${N('shop')}/flags/colour/rules`)).rules as Array<{ id: string }>;
    const schedules = await listed(importer, 'shop');
    const byFlag = Object.fromEntries(schedules.map((s) => [s.flagKey, s]));
    expect(schedules).toHaveLength(2);
    expect(byFlag.checkout).toMatchObject({
      type: 'ROLLOUT_THRESHOLD', rolloutId: rollouts[1].id, status: 'ACTIVE', description: 'ramp up', nextAt: at(DAY),
      steps: [{ at: at(DAY), deadline: at(DAY + HOUR), percentage: 50, status: 'PENDING' }, { at: at(2 * DAY), percentage: 100, status: 'PENDING' }],
      createdBy: { name: 'importer' },
    });
    expect(byFlag.colour).toMatchObject({
      type: 'RULE_DISTRIBUTIONS', ruleId: rules[1].id, status: 'PAUSED',
      steps: [{ at: at(HOUR), distributions: [{ variantKey: 'blue', rollout: 20 }, { variantKey: 'green', rollout: 80 }], status: 'PENDING' }],
    });

    // The source's state, its first step applied.
    expect(await thresholdOf(importer, 'shop', 'checkout', rollouts[1].id)).toBe(25);
    setClock(target, T + DAY);
    await tick(target);
    expect(await thresholdOf(importer, 'shop', 'checkout', rollouts[1].id)).toBe(50);
    const applied = (await listed(importer, 'shop')).find((s) => s.flagKey === 'checkout')!;
    expect(applied.steps.map((s) => s.status)).toEqual(['APPLIED', 'PENDING']);
  });

  describe('a schedule that does not check refuses the document at its place, and nothing is written', () => {
    const withSchedules = (schedules: string) => `${fixture('v1.4-complete.yml').replace(/^namespace:[\s\S]*?(?=^flags:)/m, '')}${KEY}:\n${schedules}`;
    const refused = async (ns: string, text: string, message: RegExp) => {
      const r = await importInto(ns, text);
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 3 });
      expect(r.body.message).toMatch(message);
      expect((await importer.get(N(ns))).status).toBe(404);
    };

    it('steps out of order, at the line and path of the later one', async () => {
      const text = withSchedules(`- flag: checkout\n  type: FLAG_ENABLED\n  steps:\n  - at: "2030-01-01T09:00:00Z"\n    enabled: true\n  - at: "2030-01-01T08:00:00Z"\n    enabled: false\n`);
      await refused('bad-step', text, /^request body: line \d+, column \d+, x-flagpole-schedules\[0\]\.steps\[1\]\.at: must be later than the step before it$/);
    });

    it('a rollout the flag does not have, or of the other type; a rule without the step\'s variant', async () => {
      const step = (value: string) => `  steps:\n  - at: "2030-01-01T09:00:00Z"\n    ${value}\n`;
      // dark-mode's rollouts: 1 and 2 by segment, 3 by threshold.
      await refused('bad-rank', withSchedules(`- flag: dark-mode\n  type: ROLLOUT_THRESHOLD\n  rollout: 4\n${step('percentage: 5')}`),
        /line \d+, column \d+, x-flagpole-schedules\[0\]\.rollout: flag "dark-mode" has no rollout of rank 4 \(it has 3\)$/);
      await refused('bad-type', withSchedules(`- flag: dark-mode\n  type: ROLLOUT_SEGMENT\n  rollout: 3\n${step('value: true')}`),
        /x-flagpole-schedules\[0\]\.rollout: rollout 3 of flag "dark-mode" is a THRESHOLD_ROLLOUT_TYPE rollout, not SEGMENT_ROLLOUT_TYPE$/);
      // checkout's rule 3 has no distributions.
      await refused('bad-rule', withSchedules(`- flag: checkout\n  type: RULE_DISTRIBUTIONS\n  rule: 3\n${step('distributions: [{variant: classic, rollout: 10}]')}`),
        /x-flagpole-schedules\[0\]\.steps\[0\]\.distributions\[0\]\.variant: rule 3 of flag "checkout" has no distribution for variant "classic"$/);
      await refused('no-flag', withSchedules(`- flag: nowhere\n  type: FLAG_ENABLED\n${step('enabled: true')}`),
        /x-flagpole-schedules\[0\]\.flag: the document has no flag "nowhere"$/);
    });

    it('more open schedules for one flag than schedules.max_active_per_flag (2)', async () => {
      const one = `- flag: checkout\n  type: FLAG_ENABLED\n  steps:\n  - at: "2030-01-01T09:00:00Z"\n    enabled: true\n`;
      const r = await importInto('too-many', withSchedules(one + one + one));
      expect({ status: r.status, code: r.body.code }).toEqual({ status: 400, code: 9 });
      expect(r.body.message).toMatch(/x-flagpole-schedules\[2\]: flag "too-many\/checkout" would have 3 active or paused schedules, more than schedules\.max_active_per_flag \(2\) allows$/);
      expect((await importer.get(N('too-many'))).status).toBe(404);
    });
  });

  it('a Flipt document imports as before: the same answer, no schedules', async () => {
    const summary = ok(await importInto('flipt', fixture('v1.4-complete.yml').replace(/^namespace:[\s\S]*?(?=^flags:)/m, '')));
    expect(summary).toEqual({
      namespaceKey: 'flipt', namespaceCreated: true, flagsCreated: 3, flagsSkipped: 0, flagsDeleted: 0,
      segmentsCreated: 2, segmentsSkipped: 0, segmentsDeleted: 0,
    });
    expect(await listed(importer, 'flipt')).toEqual([]);
  });

  it('drop cancels the namespace\'s open schedules (their flags are deleted), and says so', async () => {
    const before = await listed(importer, 'shop');
    expect(before.filter((s) => s.status === 'ACTIVE' || s.status === 'PAUSED')).toHaveLength(2);
    const summary = ok(await importInto('shop', await exportText(source, 'shop'), '?drop=true'));
    expect(summary).toMatchObject({ flagsDeleted: 2, flagsCreated: 2, schedulesCancelled: 2 });
    expect(summary).not.toHaveProperty('schedulesCreated');
    const after = await listed(importer, 'shop');
    expect(after.map((s) => s.status)).toEqual(['CANCELLED', 'CANCELLED']);
    const checkout = after.find((s) => s.flagKey === 'checkout')!;
    expect(checkout.steps.map((s) => s.status)).toEqual(['APPLIED', 'CANCELLED']);
    expect(checkout.steps[1].message).toBe('the namespace was replaced by an import (drop)');
  });

  it('skipExisting skips the schedules of the flags it skips (they were made for the document\'s flag)', async () => {
    const summary = ok(await importInto('shop', await exportText(source, 'shop', '?schedules=true'), '?skipExisting=true'));
    expect(summary).toMatchObject({ flagsSkipped: 2, flagsCreated: 0, schedulesCreated: 0, schedulesSkipped: 2 });
    expect((await listed(importer, 'shop')).map((s) => s.status)).toEqual(['CANCELLED', 'CANCELLED']);
  });
});

/**
 * "Copy to namespace" (issue 21, "reach Flipt's UI"): a flag goes to another namespace with its variants, default
 * variant and metadata, and on request with its rules or rollouts and the segments they target (a segment the target
 * has already is kept and used); a segment goes with its constraints. One import each, so a refusal leaves nothing
 * behind. In a real browser against a real Flagpole with authentication required; the copy is read back through the
 * API and evaluated side by side with the original.
 */
import { buildNamespace } from '../evaluation/fixtures';
import { browserDescribe, shotsAtEveryWidth } from './support/browser';
import { signedInSuite } from './support/signed-in-suite';

jest.setTimeout(60_000);

const SHOTS = process.env.FLAGPOLE_FIXES_SHOTS ?? '/tmp/shots-fixes';

browserDescribe('issue 21: copy a flag or a segment to another namespace', () => {
  const ui = signedInSuite(async (api) => {
    await buildNamespace(api, {
      key: 'src',
      segments: [
        { key: 'beta', name: 'Beta', constraints: [{ type: 'STRING_COMPARISON_TYPE', property: 'plan', operator: 'eq', value: 'beta' }] },
        { key: 'staff', name: 'Staff', constraints: [{ type: 'BOOLEAN_COMPARISON_TYPE', property: 'staff', operator: 'true', value: '' }] },
      ],
      flags: [
        {
          key: 'checkout',
          variants: [{ key: 'control', attachment: '{"color":"grey"}' }, { key: 'treatment', attachment: '{"color":"blue"}' }],
          defaultVariant: 'control',
          rules: [
            { segments: ['beta'], distributions: [['treatment', 70], ['control', 30]] },
            { segments: ['staff'], distributions: [['treatment', 100]] },
          ],
        },
        {
          key: 'dark',
          type: 'BOOLEAN_FLAG_TYPE',
          enabled: true,
          rollouts: [{ segment: { segments: ['staff'], value: true } }, { threshold: { percentage: 40, value: false } }],
        },
      ],
    });
    await api.put('/api/v1/namespaces/src/flags/checkout', { name: 'checkout', enabled: true, metadata: { owner: 'payments' } });
    // The target has a segment "staff" of its own: a copy keeps it as it is.
    await buildNamespace(api, { key: 'dst', segments: [{ key: 'staff', name: 'Our staff' }] });
    await buildNamespace(api, { key: 'third' });
  });
  const dialog = () => ui.page.getByRole('dialog');
  const get = async (path: string) => (await ui.api.get(`/api/v1/namespaces/${path}`)).body;

  it('copies a variant flag with its rules and the segments they target, and it evaluates as the original', async () => {
    await ui.open('/namespaces/src/flags/checkout');
    await ui.page.getByRole('button', { name: 'Copy to namespace' }).click();
    await dialog().getByLabel('Namespace', { exact: true }).selectOption('dst');
    expect(await dialog().getByRole('checkbox').isChecked()).toBe(true);
    await shotsAtEveryWidth(ui.page, SHOTS, 'copy-flag');
    await dialog().getByRole('button', { name: 'Copy flag' }).click();
    await ui.page.getByText('Flag checkout copied to dst (1 segment copied, 1 already there)').waitFor();

    const [from, to] = [await get('src/flags/checkout'), await get('dst/flags/checkout')];
    const shape = (f: any) => ({
      enabled: f.enabled, type: f.type, metadata: f.metadata, defaultVariant: f.defaultVariant?.key,
      variants: f.variants.map((v: any) => [v.key, v.attachment]),
    });
    expect(shape(to)).toEqual(shape(from));
    const rules = async (ns: string) =>
      ((await get(`${ns}/flags/checkout/rules`)).rules as any[]).map((r) => ({
        segments: r.segmentKeys?.length ? r.segmentKeys : [r.segmentKey],
        split: r.distributions.map((d: any) => d.rollout),
      }));
    expect(await rules('dst')).toEqual(await rules('src'));
    // beta came along with its constraint; dst's own staff was kept as it was.
    expect((await get('dst/segments/beta')).constraints).toHaveLength(1);
    expect((await get('dst/segments/staff')).name).toBe('Our staff');

    // The same entities get the same variants in both namespaces (same split, same order of distributions).
    for (let i = 0; i < 40; i++) {
      const ask = async (namespaceKey: string) =>
        (await ui.api.post('/evaluate/v1/variant', { namespaceKey, flagKey: 'checkout', entityId: `user-${i}`, context: { plan: 'beta' } })).body.variantKey;
      expect(await ask('dst')).toBe(await ask('src'));
    }

    // A second copy is refused in words, and nothing changes.
    await ui.page.getByRole('button', { name: 'Copy to namespace' }).click();
    await dialog().getByLabel('Namespace', { exact: true }).selectOption('dst');
    await dialog().getByRole('button', { name: 'Copy flag' }).click();
    await dialog().getByText('Flag checkout already exists in namespace dst, and a key cannot be changed.', { exact: false }).waitFor();
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    // A namespace was chosen: the dialog asks before dropping it (issue 43).
    await ui.page.getByRole('button', { name: 'Discard changes' }).click();
  });

  it('copies a boolean flag without its rollouts when asked to, and a segment with its constraints', async () => {
    await ui.open('/namespaces/src/flags/dark');
    await ui.page.getByRole('button', { name: 'Copy to namespace' }).click();
    await dialog().getByLabel('Namespace', { exact: true }).selectOption('third');
    await dialog().getByRole('checkbox').uncheck();
    await dialog().getByRole('button', { name: 'Copy flag' }).click();
    await ui.page.getByText('Flag dark copied to third').waitFor();
    expect(await get('third/flags/dark')).toMatchObject({ type: 'BOOLEAN_FLAG_TYPE', enabled: true });
    const rollouts = await get('third/flags/dark/rollouts');
    expect(rollouts.rules ?? rollouts.rollouts).toEqual([]);
    expect((await get('third/segments')).segments).toEqual([]);

    await ui.open('/namespaces/src/segments/beta');
    await ui.page.getByRole('button', { name: 'Copy to namespace' }).click();
    await dialog().getByLabel('Namespace', { exact: true }).selectOption('third');
    await dialog().getByRole('button', { name: 'Copy segment' }).click();
    await ui.page.getByText('Segment beta copied to third').waitFor();
    expect((await get('third/segments/beta')).constraints.map((c: any) => [c.property, c.operator, c.value])).toEqual([['plan', 'eq', 'beta']]);

    // Into a namespace that has it: the import's refusal, and no change.
    await ui.page.getByRole('button', { name: 'Copy to namespace' }).click();
    await dialog().getByLabel('Namespace', { exact: true }).selectOption('third');
    await dialog().getByRole('button', { name: 'Copy segment' }).click();
    await dialog().getByText(/already exists/).waitFor();
  });
});

/**
 * Creates a flag (variant or boolean, on or off, of a kind or of the namespace's default kind), then opens it to add
 * variants and rules (or rollouts).
 */
import { useState } from 'react';
import { createFlag } from '../api/flags';
import type { FlagType } from '../api/types';
import { Field } from '../components/field';
import { Switch } from '../components/switch';
import { KIND_HINTS, KIND_LABELS, withLifecycle, type Kind } from '../lib/lifecycle';
import { KindOptions } from './lifecycle/lifecycle-words';
import { useLifecycleEnabled } from '../session/session';
import { NewItemPage } from './new-item-page';

export function NewFlagPage({ ns }: { ns: string }) {
  const [type, setType] = useState<FlagType>('VARIANT_FLAG_TYPE');
  const [enabled, setEnabled] = useState(false);
  const [flagKind, setFlagKind] = useState<Kind | ''>('');
  const lifecycle = useLifecycleEnabled();
  return (
    <NewItemPage
      ns={ns}
      kind="flag"
      create={(item) => createFlag(ns, { ...item, type, enabled, ...(flagKind ? { metadata: withLifecycle(undefined, { kind: flagKind }) } : {}) })}
      changed={type !== 'VARIANT_FLAG_TYPE' || enabled || flagKind !== ''}
    >
      <fieldset className="radio-cards">
        <legend>Type</legend>
        <label>
          <input type="radio" name="type" checked={type === 'VARIANT_FLAG_TYPE'} onChange={() => setType('VARIANT_FLAG_TYPE')} />
          <span>
            <strong>Variant</strong> — serves one of several variants (with optional JSON attachments), chosen by rules.
          </span>
        </label>
        <label>
          <input type="radio" name="type" checked={type === 'BOOLEAN_FLAG_TYPE'} onChange={() => setType('BOOLEAN_FLAG_TYPE')} />
          <span>
            <strong>Boolean</strong> — on or off, with percentage and segment rollouts.
          </span>
        </label>
      </fieldset>
      {lifecycle && <KindChoice value={flagKind} onChange={setFlagKind} />}
      <Switch checked={enabled} onChange={setEnabled} label="Enabled" showLabel />
    </NewItemPage>
  );
}

/** The kind of the new flag, or '' for the namespace's default (`lifecycle.default_kind`), followed if it changes. */
function KindChoice({ value, onChange }: { value: Kind | ''; onChange(kind: Kind | ''): void }) {
  return (
    <Field label="Kind" hint={value ? `${KIND_LABELS[value]}: ${KIND_HINTS[value]}.` : 'How long it is expected to live; it may be potentially stale after that.'}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value as Kind | '')}>
          <option value="">The namespace's default</option>
          <KindOptions />
        </select>
      )}
    </Field>
  );
}

/** Creates a flag (variant or boolean, on or off), then opens it to add variants and rules (or rollouts). */
import { useState } from 'react';
import { createFlag } from '../api/flags';
import type { FlagType } from '../api/types';
import { Switch } from '../components/switch';
import { NewItemPage } from './new-item-page';

export function NewFlagPage({ ns }: { ns: string }) {
  const [type, setType] = useState<FlagType>('VARIANT_FLAG_TYPE');
  const [enabled, setEnabled] = useState(false);
  return (
    <NewItemPage
      ns={ns}
      kind="flag"
      create={(item) => createFlag(ns, { ...item, type, enabled })}
      changed={type !== 'VARIANT_FLAG_TYPE' || enabled}
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
      <Switch checked={enabled} onChange={setEnabled} label="Enabled" showLabel />
    </NewItemPage>
  );
}

import type { Variant } from '../api/types';
import { Field } from './field';

/** One of a flag's variants by key, or none (`""`). */
export function VariantSelect({
  label,
  hint,
  none,
  variants,
  value,
  onChange,
  locked,
}: {
  label: string;
  hint?: string;
  /** What choosing no variant means here. */
  none: string;
  variants: Variant[];
  value: string;
  onChange(variantId: string): void;
  /** Shown but not changeable, described by the element with this id (the read-only notice). */
  locked?: string;
}) {
  return (
    <Field label={label} hint={hint} describedBy={locked}>
      {(p) => (
        <select {...p} value={value} disabled={Boolean(locked)} onChange={(e) => onChange(e.target.value)}>
          <option value="">{none}</option>
          {variants.map((v) => (
            <option key={v.id} value={v.id}>
              {v.key}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

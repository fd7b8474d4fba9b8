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
}: {
  label: string;
  hint?: string;
  /** What choosing no variant means here. */
  none: string;
  variants: Variant[];
  value: string;
  onChange(variantId: string): void;
}) {
  return (
    <Field label={label} hint={hint}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
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

/** A labelled search input; Escape clears it. */
import { useId } from 'react';

export function SearchBox({
  label,
  value,
  onChange,
  placeholder,
  maxLength,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  placeholder?: string;
  maxLength?: number;
}) {
  const id = useId();
  return (
    <div className="search" role="search">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={placeholder}
        maxLength={maxLength}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && value && onChange('')}
      />
    </div>
  );
}

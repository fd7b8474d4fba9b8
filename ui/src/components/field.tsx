import { useId, type ReactNode } from 'react';

/**
 * A labelled form control with its hint and error, tied together for screen readers: the control gets `id` and
 * `aria-describedby` from the render function.
 */
export function Field({
  label,
  hint,
  error,
  children,
  className,
  describedBy,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  className?: string;
  /** The id of a further description kept elsewhere (the read-only notice). */
  describedBy?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const ids = [hintId, errorId, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': ids, ...(error ? { 'aria-invalid': true } : {}) })}
      {hint && (
        <p className="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * An on/off control: a button with role="switch", so Space/Enter toggle it and screen readers say its state. While its
 * change is being saved it is `busy`: it says so (aria-busy) and ignores clicks, but stays enabled, because a disabled
 * button loses the keyboard focus to the page.
 */
export function Switch({
  checked,
  onChange,
  label,
  disabled,
  busy = false,
  describedBy,
  title,
  showLabel = false,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  label: string;
  disabled?: boolean;
  /** Its change is being saved. */
  busy?: boolean;
  /** The id of what explains the switch, such as why it is disabled. */
  describedBy?: string;
  /** The tooltip: why it is disabled, when no element says so. */
  title?: string;
  showLabel?: boolean;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={showLabel ? undefined : label}
      aria-describedby={describedBy}
      title={title}
      className="switch"
      disabled={disabled}
      aria-busy={busy || undefined}
      onClick={() => {
        if (!busy) onChange(!checked);
      }}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {showLabel && <span className="switch-label">{label}</span>}
    </button>
  );
}

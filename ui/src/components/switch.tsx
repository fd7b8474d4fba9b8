/** An on/off control: a button with role="switch", so Space/Enter toggle it and screen readers say its state. */
export function Switch({
  checked,
  onChange,
  label,
  disabled,
  describedBy,
  title,
  showLabel = false,
}: {
  checked: boolean;
  onChange(checked: boolean): void;
  label: string;
  disabled?: boolean;
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
      onClick={() => onChange(!checked)}
    >
      <span className="switch-track" aria-hidden="true">
        <span className="switch-thumb" />
      </span>
      {showLabel && <span className="switch-label">{label}</span>}
    </button>
  );
}

/** A percentage from 0 to 100 in hundredths; an emptied box is NaN, so that the form can say what is missing. */
export function PercentInput({ value, onChange, ...field }: { value: number; onChange(v: number): void; id: string; 'aria-describedby'?: string }) {
  return (
    <span className="with-unit">
      <input
        {...field}
        type="number"
        min={0}
        max={100}
        step="0.01"
        inputMode="decimal"
        value={Number.isNaN(value) ? '' : value}
        onChange={(e) => onChange(e.target.value === '' ? NaN : Number(e.target.value))}
      />
      <span aria-hidden="true">%</span>
    </span>
  );
}

/** An API error in words (its `message`), announced to screen readers when it appears. */
export function ErrorMessage({ error, className }: { error?: string; className?: string }) {
  if (!error) return null;
  return (
    <div role="alert" className={`error-box ${className ?? ''}`}>
      {error}
    </div>
  );
}

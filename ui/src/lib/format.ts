/** Dates as the reader's locale writes them; "never" for an absent expiry. */
export function formatDate(iso: string | undefined, absent = '—'): string {
  if (!iso) return absent;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A key proposed from a name: "New checkout page" → "new-checkout-page" (keys allow letters, digits, - _ ,). */
export function keyFromName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

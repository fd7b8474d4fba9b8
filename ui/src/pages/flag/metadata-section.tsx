/**
 * A flag's metadata: free-form data for people and tools (an owner, a ticket, a dashboard link) that the API keeps
 * with the flag and evaluation ignores. Edited as rows of key, type and value (lib/metadata.ts), saved together with
 * "Save metadata"; shown as a plain list when the caller may not change flags. The save writes over the flag as it
 * is now (a name saved since in another tab stays), and asks first when the metadata itself was saved since.
 */
import { useEffect, useState } from 'react';
import { flagChanges, getFlag, updateFlag } from '../../api/flags';
import type { Flag } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { useNotify } from '../../components/notices';
import { StaleSaveDialog } from '../../components/stale-save-dialog';
import { useAction } from '../../hooks/use-action';
import { blankOf, metadataOf, rowsOf, type MetadataRow, type MetadataType } from '../../lib/metadata';
import { useLeaveGuard } from '../../routing/leave-guards';
import { useWriteLock } from '../../session/permissions';

const TYPES: Array<{ value: MetadataType; label: string }> = [
  { value: 'string', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'boolean', label: 'Boolean' },
  { value: 'json', label: 'JSON' },
];

export function MetadataSection({ ns, flag, onSaved }: { ns: string; flag: Flag; onSaved(flag: Flag): void }) {
  const [rows, setRows] = useState<MetadataRow[]>(() => rowsOf(flag.metadata));
  // Saved metadata replaces the rows; another change to the flag (a variant, the switch) leaves the edits alone.
  const stored = JSON.stringify(flag.metadata ?? {});
  useEffect(() => setRows(rowsOf(flag.metadata)), [stored]);
  const notify = useNotify();
  const locked = Boolean(useWriteLock('flag', 'update', ns));
  const converted = metadataOf(rows);
  const dirty = JSON.stringify(rowsOf(flag.metadata)) !== JSON.stringify(rows);
  // Rows not saved yet are lost by leaving, as a details form's edits are: leaving asks first.
  useLeaveGuard(dirty && !locked);
  // The flag as saved since this page loaded it, with metadata of its own, while the dialog asks what to do.
  const [newer, setNewer] = useState<Flag>();
  const save = useAction(async (metadata: Record<string, unknown>, over?: Flag) => {
    const latest = over ?? (await getFlag(ns, flag.key));
    if (!over && JSON.stringify(latest.metadata ?? {}) !== stored) return setNewer(latest);
    onSaved(await updateFlag(ns, flag.key, { ...flagChanges(latest), metadata }));
    notify(`Metadata of ${flag.key} saved`);
  });
  const set = (i: number, change: Partial<MetadataRow>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));

  return (
    <section className="card" aria-labelledby="metadata-heading">
      <div className="section-header">
        <div>
          <h2 id="metadata-heading">Metadata</h2>
          <p className="hint">Kept with the flag for people and tools (an owner, a ticket); evaluation ignores it.</p>
        </div>
      </div>
      {rows.length === 0 && <p className="empty">No metadata.</p>}
      {locked ? (
        rows.length > 0 && (
          <dl className="metadata-list">
            {rows.map((r) => (
              <div key={r.key}>
                <dt className="key">{r.key}</dt>
                <dd>{r.type === 'json' ? <code className="attachment">{r.text}</code> : r.text}</dd>
              </div>
            ))}
          </dl>
        )
      ) : (
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            if (converted.metadata) void save.run(converted.metadata);
          }}
        >
          {rows.map((r, i) => (
            <div className="metadata-row" key={i}>
              <input aria-label={`Metadata key ${i + 1}`} className="code" placeholder="key" value={r.key} onChange={(e) => set(i, { key: e.target.value })} />
              <select
                aria-label={`Metadata type ${i + 1}`}
                value={r.type}
                onChange={(e) => set(i, { type: e.target.value as MetadataType, text: blankOf(e.target.value as MetadataType) })}
              >
                {TYPES.map((t) => (
                  <option key={t.value} value={t.value}>
                    {t.label}
                  </option>
                ))}
              </select>
              {r.type === 'boolean' ? (
                <select aria-label={`Metadata value ${i + 1}`} value={r.text} onChange={(e) => set(i, { text: e.target.value })}>
                  <option value="true">true</option>
                  <option value="false">false</option>
                </select>
              ) : r.type === 'json' ? (
                <textarea aria-label={`Metadata value ${i + 1}`} className="code" rows={3} spellCheck={false} value={r.text} onChange={(e) => set(i, { text: e.target.value })} />
              ) : (
                <input
                  aria-label={`Metadata value ${i + 1}`}
                  inputMode={r.type === 'number' ? 'decimal' : undefined}
                  value={r.text}
                  onChange={(e) => set(i, { text: e.target.value })}
                />
              )}
              <button type="button" className="icon" aria-label={`Remove metadata ${r.key || i + 1}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                ×
              </button>
            </div>
          ))}
          {dirty && converted.problem && (
            <p className="field-error" role="alert">
              {converted.problem}
            </p>
          )}
          <ErrorMessage error={save.error} />
          <div className="form-actions">
            <button type="button" onClick={() => setRows([...rows, { key: '', type: 'string', text: '' }])}>
              Add metadata
            </button>
            <button type="submit" className="primary" disabled={save.busy || !dirty || Boolean(converted.problem)}>
              Save metadata
            </button>
          </div>
        </form>
      )}
      {newer && (
        <StaleSaveDialog
          what="flag"
          changedAt={newer.updatedAt}
          busy={save.busy}
          onClose={() => setNewer(undefined)}
          onReload={() => {
            setNewer(undefined);
            onSaved(newer);
          }}
          onOverwrite={() => {
            if (converted.metadata) void save.run(converted.metadata, newer).then(() => setNewer(undefined));
          }}
        />
      )}
    </section>
  );
}

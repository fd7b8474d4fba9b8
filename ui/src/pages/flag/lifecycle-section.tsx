/**
 * A flag's lifecycle on its page (issue 40): its state as the server's last check found it (new, live, potentially
 * stale with each reason in words, archived), its kind, when it was last evaluated and checked, and the two things a
 * user sets — the kind (a select that saves at once, as the on/off switch does) and the archive mark (*Archive flag*
 * / *Unarchive*). Both are written in the flag's metadata (`metadata.flagpole`, lib/lifecycle.ts) over its latest
 * version, every other key kept; the metadata card below shows them too.
 */
import { getFlagLifecycle, markFlag, type FlagLifecycle } from '../../api/lifecycle';
import { keys } from '../../api/query-keys';
import type { Flag } from '../../api/types';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { useNotify } from '../../components/notices';
import { useAction } from '../../hooks/use-action';
import { useLoad } from '../../hooks/use-load';
import { formatDateBare, zoneHeading } from '../../lib/format';
import { KIND_HINTS, KIND_LABELS, kindLabel, marksOf, type Kind } from '../../lib/lifecycle';
import { relativeTime } from '../../lib/relative-time';
import { useWriteLock } from '../../session/permissions';
import { useAnalyticsEnabled } from '../../session/session';
import { useTimeZone, type TimeZone } from '../../session/time-zone';
import { KindOptions, StaleReasons, StateBadge } from '../lifecycle/lifecycle-words';

export function LifecycleSection({ ns, flag, onSaved }: { ns: string; flag: Flag; onSaved(flag: Flag): void }) {
  const lifecycle = useLoad(keys.lifecycle(ns, flag.key), (signal) => getFlagLifecycle(ns, flag.key, signal));
  const notify = useNotify();
  const zone = useTimeZone();
  const analytics = useAnalyticsEnabled();
  // Locked (read-only, or a role that may not update flags): the kind as text and no archive button, as the metadata
  // card shows its rows; the details form above says why, once.
  const locked = Boolean(useWriteLock('flag', 'update', ns));
  const marks = marksOf(flag.metadata);
  const mark = useAction(async (change: { kind?: Kind; archived?: boolean }, message: string) => {
    onSaved(await markFlag(ns, flag.key, change));
    notify(message);
  });
  const l: FlagLifecycle | undefined = lifecycle.data;
  const state = stateOf(flag, l);
  const kind = marks.kind ?? l?.kind;

  return (
    <section className="card lifecycle" aria-labelledby="lifecycle-heading">
      <div className="section-header">
        <div>
          <h2 id="lifecycle-heading">Lifecycle</h2>
          <p className="hint">
            What kind of flag this is, and whether it looks like debt: a flag past its kind's lifetime, not evaluated
            lately or serving one value to everyone is potentially stale. Times are {zoneHeading(zone)}.
          </p>
        </div>
        {state && <StateBadge state={state} />}
      </div>
      <ErrorMessage error={lifecycle.error} />
      <div className="lifecycle-grid">
        {locked ? (
          <dl className="lifecycle-facts">
            <div>
              <dt>Kind</dt>
              <dd>
                {kind ? kindLabel(kind) : '…'}
                {kind && !marks.kind && l && <span className="muted"> (the namespace's default)</span>}
              </dd>
            </div>
          </dl>
        ) : (
          <KindField
            kind={kind}
            byDefault={!marks.kind && Boolean(l)}
            waiting={!kind && !lifecycle.error}
            busy={mark.busy}
            onChange={(next) => void mark.run({ kind: next }, `Kind of ${flag.key}: ${KIND_LABELS[next]}`)}
          />
        )}
        <dl className="lifecycle-facts">
          {analytics && (
            <div>
              <dt>Last evaluated</dt>
              <dd>{l ? l.lastEvaluatedAt ? <When iso={l.lastEvaluatedAt} zone={zone} /> : 'Never (within analytics.retention)' : '…'}</dd>
            </div>
          )}
          <div>
            <dt>Last checked</dt>
            <dd>{l ? l.checkedAt ? <When iso={l.checkedAt} zone={zone} /> : 'Not yet (checks run every lifecycle.check_interval)' : '…'}</dd>
          </div>
        </dl>
      </div>
      {state === 'potentially_stale' && l && (
        <div className="stale-box">
          <h3>Why it may be stale</h3>
          <StaleReasons reasons={l.reasons} zoneSaid />
          <p className="hint">Remove it from the code that asks for it, then delete it; or archive it, or give it a permanent kind, if it is meant to stay.</p>
        </div>
      )}
      {marks.archived && (
        <p className="lifecycle-note">
          Archived: it is done with, and never reported as stale. Evaluation is not affected; delete the flag once no code asks for it.
        </p>
      )}
      <ErrorMessage error={mark.error} />
      {!locked && (
        <div className="form-actions">
          {marks.archived ? (
            <button type="button" disabled={mark.busy} onClick={() => void mark.run({ archived: false }, `${flag.key} unarchived`)}>
              Unarchive
            </button>
          ) : (
            <button type="button" disabled={mark.busy} onClick={() => void mark.run({ archived: true }, `${flag.key} archived`)}>
              Archive flag
            </button>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The state to show: the route's, except that the archive mark just saved shows at once, before the route (which
 * reads the mark from the flag) is read again — and a mark just removed shows no state until then.
 */
function stateOf(flag: Flag, lifecycle: FlagLifecycle | undefined): string | undefined {
  if (marksOf(flag.metadata).archived) return 'archived';
  return lifecycle?.state === 'archived' ? undefined : lifecycle?.state;
}

/** The kind select; `byDefault`: the flag has none of its own, the namespace's default applies. */
function KindField({ kind, byDefault, waiting, busy, onChange }: {
  kind?: string;
  byDefault: boolean;
  waiting: boolean;
  busy: boolean;
  onChange(kind: Kind): void;
}) {
  return (
    <Field
      label="Kind"
      hint={
        <>
          {kind && kind in KIND_HINTS ? `${kindLabel(kind)}: ${KIND_HINTS[kind as Kind]}.` : null}
          {byDefault && <> Not set on the flag: the namespace's default.</>}
        </>
      }
    >
      {(p) => (
        <select
          {...p}
          value={kind ?? ''}
          disabled={waiting}
          aria-busy={busy || undefined}
          onChange={(e) => {
            if (!busy) onChange(e.target.value as Kind);
          }}
        >
          {!kind && <option value="">…</option>}
          <KindOptions />
        </select>
      )}
    </Field>
  );
}

function When({ iso, zone }: { iso: string; zone: TimeZone }) {
  return (
    <>
      {formatDateBare(iso, zone)} <span className="muted">({relativeTime(iso)})</span>
    </>
  );
}

/**
 * The page header's word on the flag's lifecycle, on every view of the page: *Potentially stale* or *Archived*, or
 * nothing for a flag that is neither (the card says the rest). It shares the card's read.
 */
export function LifecycleMark({ ns, flag }: { ns: string; flag: Flag }) {
  const lifecycle = useLoad(keys.lifecycle(ns, flag.key), (signal) => getFlagLifecycle(ns, flag.key, signal));
  const state = stateOf(flag, lifecycle.data);
  if (state !== 'potentially_stale' && state !== 'archived') return null;
  return (
    <>
      {' '}
      · <StateBadge state={state} />
    </>
  );
}

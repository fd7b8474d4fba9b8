/**
 * One flag: its details and on/off switch; for a variant flag its variants and rules, for a boolean flag its
 * rollouts; its scheduled changes; its lifecycle (kind, archive, whether it may be stale and why; with `lifecycle.enabled`). Each section
 * saves on its own and reloads what it changed. The History view lists the audit trail's changes to the flag and
 * everything it holds (offered only to a caller that may read the trail).
 */
import { useState } from 'react';
import { deleteFlag, getFlag } from '../api/flags';
import { keys } from '../api/query-keys';
import { listAllSegments } from '../api/segments';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ErrorMessage } from '../components/error-message';
import { NotLoaded } from '../components/not-loaded';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { currentView, detailsAndHistory, ViewTabs } from '../components/view-tabs';
import { useLoad } from '../hooks/use-load';
import { navigate, path, useRoute } from '../routing/hash-router';
import { Link } from '../routing/link';
import { useLoadError, useLocks, useMayCopyOut, useWriteLock } from '../session/permissions';
import { FlagDetailsForm } from './flag/flag-details-form';
import { LifecycleMark, LifecycleSection } from './flag/lifecycle-section';
import { MetadataSection } from './flag/metadata-section';
import { RolloutsSection } from './flag/rollouts-section';
import { RulesSection } from './flag/rules-section';
import { FailedScheduleNotice, SchedulesSection } from './flag/schedules-section';
import { AnalyticsSection } from './flag/analytics-section';
import { VariantsSection } from './flag/variants-section';
import { HistorySection } from './history/history-section';
import { CopyDialog } from './copy-dialog';
import { copySource } from './flag/copy-flag';
import { useReadOnly } from '../session/read-only';
import { useAnalyticsEnabled, useLifecycleEnabled } from '../session/session';

export function FlagPage({ ns, flagKey }: { ns: string; flagKey: string }) {
  const flag = useLoad(keys.flag(ns, flagKey), (signal) => getFlag(ns, flagKey, signal));
  const segments = useLoad(keys.segments(ns), (signal) => listAllSegments(ns, signal));
  const [deleting, setDeleting] = useState(false);
  const [copying, setCopying] = useState(false);
  const readOnly = useReadOnly();
  const locks = useLocks();
  const notify = useNotify();
  const deleteLock = useWriteLock('flag', 'delete', ns);
  const mayCopy = useMayCopyOut('flag', ns);
  const loadError = useLoadError('flag', ns, flag.error);
  const analytics = useAnalyticsEnabled();
  const lifecycle = useLifecycleEnabled();
  const base = path('namespaces', ns, 'flags', flagKey);
  const views = detailsAndHistory(base, !locks('audit', 'read', ns));
  // Only where evaluations are counted: elsewhere `?view=analytics` shows the details.
  if (analytics) views.push({ key: 'analytics', label: 'Analytics', to: `${base}?view=analytics` });
  const view = currentView(useRoute().query, views);

  if (!flag.data) {
    return <NotLoaded title={flagKey} what="flag" error={loadError} back={<Link to={path('namespaces', ns, 'flags')}>Back to the flags</Link>} />;
  }
  const f = flag.data;
  const isBoolean = f.type === 'BOOLEAN_FLAG_TYPE';
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link to={path('namespaces', ns, 'flags')}>Flags</Link> / <span aria-current="page">{f.key}</span>
      </nav>
      <PageHeader
        title={f.name}
        subtitle={
          <>
            <span className="key">{f.key}</span> · {isBoolean ? 'Boolean flag' : 'Variant flag'}
            {lifecycle && <LifecycleMark ns={ns} flag={f} />}
          </>
        }
        actions={
          <>
            <Link to={`${path('namespaces', ns, 'console')}?flag=${encodeURIComponent(f.key)}`} className="button">
              Try in console
            </Link>
            {mayCopy && (
              <button type="button" onClick={() => setCopying(true)} {...readOnly?.locked}>
                Copy to namespace
              </button>
            )}
            <button type="button" className="danger" onClick={() => setDeleting(true)} {...deleteLock?.locked}>
              Delete flag
            </button>
          </>
        }
      />
      <ViewTabs label={`Flag ${f.key}`} views={views} current={view} />
      {view === 'analytics' ? (
        <AnalyticsSection ns={ns} flag={f} />
      ) : view === 'history' ? (
        <HistorySection
          ns={ns}
          filter={{ namespaceKey: ns, flagKey: f.key }}
          subject={`flag ${f.key}`}
          hint={`Changes to this flag and its ${isBoolean ? 'rollouts' : 'variants and rules'}, newest first.`}
        />
      ) : (
        <>
          <FailedScheduleNotice ns={ns} flagKey={f.key} />
          <FlagDetailsForm ns={ns} flag={f} onSaved={flag.set} />
          <ErrorMessage error={segments.error && `Segments could not be loaded: ${segments.error}`} />
          {isBoolean ? (
            <RolloutsSection ns={ns} flag={f} segments={segments.data ?? []} />
          ) : (
            <>
              <VariantsSection ns={ns} flag={f} />
              <RulesSection ns={ns} flag={f} segments={segments.data ?? []} />
            </>
          )}
          <SchedulesSection ns={ns} flag={f} />
          {lifecycle && <LifecycleSection ns={ns} flag={f} onSaved={flag.set} />}
          <MetadataSection ns={ns} flag={f} onSaved={flag.set} />
        </>
      )}
      {copying && <CopyDialog ns={ns} source={copySource(ns, f)} onClose={() => setCopying(false)} />}
      {deleting && (
        <ConfirmDialog
          title={`Delete flag ${f.key}?`}
          confirmLabel="Delete flag"
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await deleteFlag(ns, f.key);
            notify(`Flag ${f.key} deleted`);
            // Deleted: unsaved edits of its details have nothing left to be saved to.
            navigate(path('namespaces', ns, 'flags'), { force: true });
          }}
        >
          <p>Its variants, rules and rollouts go with it. Clients evaluating it will get "flag not found".</p>
        </ConfirmDialog>
      )}
    </>
  );
}

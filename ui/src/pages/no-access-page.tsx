import { ErrorMessage } from '../components/error-message';
import { PageHeader } from '../components/page-header';
import { path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { deniedReason, usePermissions } from '../session/permissions';

/** An address in a namespace the authorization policy does not let the caller see (a bookmark, a link from someone else). */
export function NoAccessPage({ ns }: { ns: string }) {
  const permissions = usePermissions();
  const readable = Object.keys(permissions?.namespaces ?? {}).filter((key) => permissions?.namespaces[key].namespace?.includes('read'));
  return (
    <>
      <PageHeader title="No access to this namespace" />
      <ErrorMessage error={permissions ? deniedReason(permissions, `see namespace ${ns}`) : `The authorization policy does not let you see namespace ${ns}.`} />
      <p>
        {readable.length > 0 ? (
          <>
            Go to <Link to={path('namespaces', readable[0], 'flags')}>{readable[0]}</Link>, or <Link to="/namespaces">pick another namespace</Link>.
          </>
        ) : (
          <>Ask an administrator for a role that may see it.</>
        )}
      </p>
    </>
  );
}

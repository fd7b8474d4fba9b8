import { PageHeader } from '../components/page-header';
import { path } from '../routing/hash-router';
import { Link } from '../routing/link';
import { lastNamespace } from '../session/namespaces';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no page at this address. Go to the <Link to={path('namespaces', lastNamespace(), 'flags')}>flags</Link>.
      </p>
    </>
  );
}

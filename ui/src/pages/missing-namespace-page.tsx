import { PageHeader } from '../components/page-header';
import { Link } from '../routing/link';

/** An address in a namespace that does not exist (mistyped, or deleted since it was bookmarked). */
export function MissingNamespacePage({ ns }: { ns: string }) {
  return (
    <>
      <PageHeader title="Namespace not found" />
      <p>
        There is no namespace <strong className="key">{ns}</strong>. It may have been deleted, or the address may be mistyped.
      </p>
      <p>
        <Link to="/namespaces">Go to the namespaces</Link> to pick one or create it.
      </p>
    </>
  );
}

import type { ReactNode } from 'react';
import { ErrorMessage } from './error-message';
import { Loading } from './loading';
import { PageHeader } from './page-header';

/** A page whose subject is still loading, or could not be (with the API's message, e.g. `flag "default/x" not found`). */
export function NotLoaded({ title, error, what, back }: { title: string; error?: string; what: string; back: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      {error ? <ErrorMessage error={error} /> : <Loading what={`Loading the ${what}`} />}
      <p>{back}</p>
    </>
  );
}

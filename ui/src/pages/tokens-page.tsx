/**
 * Static client tokens (`/auth/v1/tokens`, method token): list a page at a time, create (with a role, under
 * authorization), delete one or several at once. A new token's value is shown once, right after creating it: the
 * server keeps only its hash. Under authorization each needs its action
 * on `authentication` outside namespaces; what the caller may not do is disabled with the reason, or left out.
 */
import { useState } from 'react';
import { keys } from '../api/query-keys';
import { listAuthMethods, tokenPages } from '../api/auth';
import type { Authentication } from '../api/types';
import { CopyButton } from '../components/copy-button';
import { ErrorMessage } from '../components/error-message';
import { PageHeader } from '../components/page-header';
import { Pager } from '../components/pager';
import { ActionsHeader, DeleteButton } from '../components/row-actions';
import { useLoad } from '../hooks/use-load';
import { usePagedList } from '../hooks/use-paged-list';
import { formatDateBare, zoneHeading } from '../lib/format';
import { useLoadError, useLocks, usePermissions } from '../session/permissions';
import { useSession } from '../session/session';
import { useTimeZone } from '../session/time-zone';
import { DeleteTokensDialog } from './tokens/delete-tokens-dialog';
import { SelectAll, SelectionBar, SelectOne, useSelection } from './tokens/selection';
import { TokenForm } from './tokens/token-form';
import { DESCRIPTION, NAME, NAMESPACE, namedRoles, tokenLabel } from './tokens/token-metadata';

export function TokensPage() {
  const [pageSize, setPageSize] = useState(25);
  const list = usePagedList<Authentication>({ listKey: ['auth', 'tokens'], fetchPage: tokenPages, pageSize });
  const methods = useLoad(keys.authMethods, () => listAuthMethods());
  const tokensEnabled = methods.data?.some((m) => m.method === 'METHOD_TOKEN' && m.enabled);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ token: string; name: string }>();
  const [deleting, setDeleting] = useState<Authentication[]>();
  const locks = useLocks();
  const createLock = locks('authentication', 'create');
  const canDelete = !locks('authentication', 'delete');
  const listError = useLoadError('authentication', undefined, list.error);
  // A caller who may not read tokens gets the reason alone: no empty table, no pager.
  const readDenied = Boolean(list.error && locks('authentication', 'read'));
  const { state } = useSession();
  // The token this page was signed in with, when it was signed in with a static token.
  const selfId = state.status === 'ready' && state.via === 'token' ? state.self?.id : undefined;
  const expired = (a: Authentication) => a.expiresAt !== undefined && Date.parse(a.expiresAt) < Date.now();
  const selection = useSelection(list.items, `${list.page}/${list.pageSize}`);
  // Roles matter under authorization, or where a token names one anyway.
  const authorizing = Boolean(usePermissions());
  const showRoles = authorizing || list.items.some((a) => namedRoles(a));
  // The dates name their zone once, in the headers (as the flag and segment lists do); a phone hides the headers,
  // so a line above the rows says it there.
  const timeZone = useTimeZone();
  const zone = zoneHeading(timeZone);

  return (
    <>
      <PageHeader
        title="Static tokens"
        subtitle="Client tokens for SDKs and scripts, sent as Authorization: Bearer <token>."
        actions={
          <button type="button" className="primary" onClick={() => setCreating(true)} disabled={!tokensEnabled} {...createLock?.locked}>
            New token
          </button>
        }
      />
      {methods.data && !tokensEnabled && (
        <p className="notice-inline">
          The token method is disabled: set <code>authentication.methods.token.enabled: true</code> to create tokens.
        </p>
      )}
      {created && (
        <section className="card token-created" aria-labelledby="token-created-heading">
          <h2 id="token-created-heading">Token "{created.name}" created</h2>
          <p>Copy it now: it is shown only this once, and Flagpole cannot show it again.</p>
          <div className="inline-form">
            <label htmlFor="new-token" className="visually-hidden">
              The new token
            </label>
            <input id="new-token" className="code" readOnly value={created.token} onFocus={(e) => e.target.select()} data-testid="new-token" />
            <CopyButton text={created.token} />
            <button type="button" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </div>
        </section>
      )}
      <ErrorMessage error={listError || methods.error} />
      {!readDenied && canDelete && list.items.length > 0 && <SelectionBar selection={selection} onDelete={setDeleting} />}
      {!readDenied && list.items.length > 0 && (
        <p className="list-zone-note" aria-hidden="true">
          Times: {zone}
        </p>
      )}
      {!readDenied && (
        <div className="table-wrap list-table" aria-busy={list.loading}>
          {/* list-table: on a phone the rows stack, as the flag and segment lists do (list.css). */}
          <table className={canDelete ? 'list selectable' : 'list'}>
            <thead>
              <tr>
                {canDelete && (
                  <th scope="col" className="select-col">
                    <SelectAll selection={selection} />
                  </th>
                )}
                <th scope="col">Name</th>
                <th scope="col">Namespace</th>
                {showRoles && <th scope="col">Role</th>}
                <th scope="col">
                  Created<span className="column-note"> ({zone})</span>
                </th>
                <th scope="col">
                  Expires<span className="column-note"> ({zone})</span>
                </th>
                {canDelete && <ActionsHeader />}
              </tr>
            </thead>
            <tbody>
              {list.items.map((a) => (
                <tr key={a.id}>
                  {canDelete && (
                    <td className="cell-select">
                      <SelectOne selection={selection} item={a} label={`Select token ${tokenLabel(a)}`} />
                    </td>
                  )}
                  <td className="cell-title">
                    <strong>{a.metadata[NAME] || '(no name)'}</strong>
                    {a.id === selfId && <span className="badge">signed in with it</span>}
                    {a.metadata[DESCRIPTION] && <div className="muted">{a.metadata[DESCRIPTION]}</div>}
                  </td>
                  <td className="cell-line" data-label="Namespace">{a.metadata[NAMESPACE] || <span className="muted">all</span>}</td>
                  {showRoles && (
                    <td className="cell-line" data-label="Role">
                      {namedRoles(a) ?? <span className="muted">from the policy</span>}
                    </td>
                  )}
                  <td className="nowrap cell-line" data-label="Created">{formatDateBare(a.createdAt, timeZone)}</td>
                  <td className="nowrap cell-line" data-label="Expires">
                    {a.expiresAt ? formatDateBare(a.expiresAt, timeZone) : 'never'}
                    {expired(a) && <span className="badge badge-warn">expired</span>}
                  </td>
                  {canDelete && (
                    <td className="row-actions cell-end">
                      <DeleteButton what={`token ${tokenLabel(a)}`} onDelete={() => setDeleting([a])} />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          {!list.loading && list.items.length === 0 && !list.error && <p className="empty">No static tokens.</p>}
        </div>
      )}
      {!readDenied && <Pager list={list} noun="tokens" onPageSize={setPageSize} />}
      {creating && (
        <TokenForm
          onClose={() => setCreating(false)}
          onCreated={(token, name) => {
            setCreating(false);
            setCreated({ token, name });
            list.reload();
          }}
        />
      )}
      {deleting && (
        <DeleteTokensDialog
          tokens={deleting}
          selfId={selfId}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => {
            selection.clear();
            list.reload();
          }}
        />
      )}
    </>
  );
}

/**
 * Static client tokens (`/auth/v1/tokens`, method token): list a page at a time, create, delete. A new token's value
 * is shown once, right after creating it: the server keeps only its hash. Under authorization each needs its action
 * on `authentication` outside namespaces; what the caller may not do is disabled with the reason, or left out.
 */
import { useState } from 'react';
import { keys } from '../api/query-keys';
import { createToken, deleteToken, listAuthMethods, tokenPages, type NewToken } from '../api/auth';
import type { Authentication } from '../api/types';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { ErrorMessage } from '../components/error-message';
import { Field } from '../components/field';
import { ModalForm } from '../components/modal-form';
import { useNotify } from '../components/notices';
import { PageHeader } from '../components/page-header';
import { Pager } from '../components/pager';
import { ActionsHeader, DeleteButton } from '../components/row-actions';
import { useAction } from '../hooks/use-action';
import { useLoad } from '../hooks/use-load';
import { usePagedList } from '../hooks/use-paged-list';
import { formatDate, formatDateTime, instantOfInput, zoneLabel } from '../lib/format';
import { useNamespaces } from '../session/namespaces';
import { useLoadError, useLocks } from '../session/permissions';
import { useSession } from '../session/session';
import { useTimeZone, type TimeZone } from '../session/time-zone';

const NAME = 'io.flagpole.auth.token.name';
const DESCRIPTION = 'io.flagpole.auth.token.description';
const NAMESPACE = 'io.flagpole.auth.token.namespace';

export function TokensPage() {
  const [pageSize, setPageSize] = useState(25);
  const list = usePagedList<Authentication>({ listKey: ['auth', 'tokens'], fetchPage: tokenPages, pageSize });
  const methods = useLoad(keys.authMethods, () => listAuthMethods());
  const tokensEnabled = methods.data?.some((m) => m.method === 'METHOD_TOKEN' && m.enabled);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ token: string; name: string }>();
  const [deleting, setDeleting] = useState<Authentication>();
  const notify = useNotify();
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
      {!readDenied && (
        <div className="table-wrap" aria-busy={list.loading}>
          <table className="list">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Namespace</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                {canDelete && <ActionsHeader />}
              </tr>
            </thead>
            <tbody>
              {list.items.map((a) => (
                <tr key={a.id}>
                  <td>
                    <strong>{a.metadata[NAME] || '(no name)'}</strong>
                    {a.id === selfId && <span className="badge">signed in with it</span>}
                    {a.metadata[DESCRIPTION] && <div className="muted">{a.metadata[DESCRIPTION]}</div>}
                  </td>
                  <td>{a.metadata[NAMESPACE] || <span className="muted">all</span>}</td>
                  <td className="nowrap">{formatDate(a.createdAt)}</td>
                  <td className="nowrap">
                    {formatDate(a.expiresAt, 'never')}
                    {expired(a) && <span className="badge badge-warn">expired</span>}
                  </td>
                  {canDelete && (
                    <td className="row-actions">
                      <DeleteButton what={`token ${a.metadata[NAME] || a.id}`} onDelete={() => setDeleting(a)} />
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
        <ConfirmDialog
          title={`Delete token ${deleting.metadata[NAME] || deleting.id}?`}
          confirmLabel="Delete token"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await deleteToken(deleting.id);
            notify('Token deleted');
            list.reload();
          }}
        >
          {deleting.id === selfId && (
            <p className="notice-inline" role="note">
              <strong>You are signed in with this token.</strong> Deleting it signs you out of this page at once, and you
              will need another token to sign in again.
            </p>
          )}
          <p>Clients using it are refused from now on (by other Flagpole instances at once with the Redis cache, otherwise within 5 seconds).</p>
        </ConfirmDialog>
      )}
    </>
  );
}

/** A new token's name, description, expiry (entered in the time zone chosen in the navigation) and namespace. */
function TokenForm({ onClose, onCreated }: { onClose(): void; onCreated(token: string, name: string): void }) {
  const namespaces = useNamespaces();
  const [input, setInput] = useState<NewToken>({ name: '', description: '', namespaceKey: '' });
  const [expires, setExpires] = useState('');
  const zone = useTimeZone();
  const expiresAt = instantOfInput(expires, zone);
  const save = useAction(async () => {
    const body: NewToken = { ...input, expiresAt: expiresAt?.toISOString(), namespaceKey: input.namespaceKey || undefined };
    const r = await createToken(body);
    onCreated(r.clientToken, input.name);
  });
  return (
    <ModalForm title="New static token" onClose={onClose} onSubmit={() => void save.run()} submitLabel="Create token" busy={save.busy} error={save.error}>
      <Field label="Name">{(p) => <input {...p} required autoFocus value={input.name} onChange={(e) => setInput({ ...input, name: e.target.value })} />}</Field>
      <Field label="Description">
        {(p) => <input {...p} value={input.description} onChange={(e) => setInput({ ...input, description: e.target.value })} />}
      </Field>
      <Field label={`Expires (${zoneLabel(zone, expiresAt ?? new Date())})`} hint={<ExpiryHint at={expiresAt} zone={zone} />}>
        {(p) => <input {...p} type="datetime-local" value={expires} onChange={(e) => setExpires(e.target.value)} />}
      </Field>
      <Field label="Namespace" hint="Optional: a token limited to one namespace is refused everywhere else.">
        {(p) => (
          <select {...p} value={input.namespaceKey} onChange={(e) => setInput({ ...input, namespaceKey: e.target.value })}>
            <option value="">All namespaces</option>
            {(namespaces.data ?? []).map((n) => (
              <option key={n.key} value={n.key}>
                {n.key}
              </option>
            ))}
          </select>
        )}
      </Field>
    </ModalForm>
  );
}

/** The expiry as the other zone writes it, so that the zone it was entered in is beyond doubt. */
function ExpiryHint({ at, zone }: { at?: Date; zone: TimeZone }) {
  if (!at) return <>Optional. Without it the token never expires. The time zone is chosen beside the theme.</>;
  return <>That is {formatDateTime(at, zone === 'utc' ? 'local' : 'utc')}.</>;
}

/**
 * A new static token: name, description, expiry (entered in the time zone chosen in the navigation), namespace and
 * role. The role is metadata the authorization policy reads (`io.flagpole.auth.role`, docs/authorization.md); the
 * server refuses a role that would let the token do more than its creator may.
 */
import { useId, useState } from 'react';
import { createToken, type NewToken } from '../../api/auth';
import { Field } from '../../components/field';
import { ModalForm } from '../../components/modal-form';
import { useAction } from '../../hooks/use-action';
import { formatDateTime, instantOfInput, zoneLabel } from '../../lib/format';
import { useNamespaces } from '../../session/namespaces';
import { usePermissions } from '../../session/permissions';
import { useTimeZone, type TimeZone } from '../../session/time-zone';
import { ROLE } from './token-metadata';

export function TokenForm({ onClose, onCreated }: { onClose(): void; onCreated(token: string, name: string): void }) {
  const namespaces = useNamespaces();
  const permissions = usePermissions();
  const rolesId = useId();
  const [input, setInput] = useState<NewToken>({ name: '', description: '', namespaceKey: '' });
  const [role, setRole] = useState('');
  const [expires, setExpires] = useState('');
  const zone = useTimeZone();
  const expiresAt = instantOfInput(expires, zone);
  const save = useAction(async () => {
    const body: NewToken = {
      ...input,
      expiresAt: expiresAt?.toISOString(),
      namespaceKey: input.namespaceKey || undefined,
      metadata: role.trim() ? { [ROLE]: role.trim() } : undefined,
    };
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
      <Field label="Role" hint={<RoleHint authorizing={Boolean(permissions)} />}>
        {(p) => (
          <>
            <input {...p} className="code" list={rolesId} spellCheck={false} autoComplete="off" value={role} onChange={(e) => setRole(e.target.value)} />
            {/* The roles the caller holds: the only names the UI knows the policy has. */}
            <datalist id={rolesId}>
              {(permissions?.roles ?? []).map((r) => (
                <option key={r} value={r} />
              ))}
            </datalist>
          </>
        )}
      </Field>
    </ModalForm>
  );
}

function RoleHint({ authorizing }: { authorizing: boolean }) {
  const what = 'Optional: a role of the authorization policy (several: comma-separated), which decides what the token may do.';
  if (!authorizing) return <>{what} Authorization is off, so it takes effect only once authorization is required.</>;
  return <>{what} It may not allow more than your own roles do. Without one, the policy's bindings decide.</>;
}

/** The expiry as the other zone writes it, so that the zone it was entered in is beyond doubt. */
function ExpiryHint({ at, zone }: { at?: Date; zone: TimeZone }) {
  if (!at) return <>Optional. Without it the token never expires. The time zone is chosen beside the theme.</>;
  return <>That is {formatDateTime(at, zone === 'utc' ? 'local' : 'utc')}.</>;
}

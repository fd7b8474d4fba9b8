/**
 * A flag's on/off switch in the flag list. The list reloads after the change (the write makes it stale), and until
 * it has, its row still says what the flag was: the switch shows what was saved while the row is the one it was
 * saved from.
 */
import { useState } from 'react';
import { messageOf } from '../../api/client';
import { setFlagEnabled } from '../../api/flags';
import type { Flag } from '../../api/types';
import { useNotify } from '../../components/notices';
import { Switch } from '../../components/switch';
import type { WriteLock } from '../../session/permissions';

export function FlagListSwitch({
  ns,
  flag,
  lock,
  describedBy,
  onError,
}: {
  ns: string;
  flag: Flag;
  /** Why it may not be changed, when it may not. */
  lock?: WriteLock;
  describedBy?: string;
  /** A failed change in words, or undefined when a new change starts. */
  onError(error: string | undefined): void;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<{ from: Flag; enabled: boolean }>();
  const toggle = async (enabled: boolean) => {
    setBusy(true);
    onError(undefined);
    try {
      // Over the flag as it is now, not the row's copy: a name saved since in another tab stays.
      await setFlagEnabled(ns, flag.key, enabled);
      setSaved({ from: flag, enabled });
      notify(`${flag.key} is ${enabled ? 'enabled' : 'disabled'}`);
    } catch (e) {
      onError(`Could not ${enabled ? 'enable' : 'disable'} ${flag.key}: ${messageOf(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Switch
      checked={saved?.from === flag ? saved.enabled : flag.enabled}
      label={`Enable ${flag.key}`}
      disabled={Boolean(lock)}
      busy={busy}
      describedBy={describedBy}
      title={lock?.reason}
      onChange={(on) => void toggle(on)}
    />
  );
}

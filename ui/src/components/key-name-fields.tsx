/**
 * Name and key of something new (flag, segment, namespace): the key follows the name until it is edited by hand.
 * Keys are fixed once created, so the key is only asked here. Both are checked as they are typed, by the API's rules
 * (lib/keys.ts); the API's own answer stays the last word.
 */
import { useState } from 'react';
import { useFieldCheck, type FieldCheck } from '../hooks/use-field-check';
import { keyFromName } from '../lib/format';
import { keyProblem, nameProblem } from '../lib/keys';
import { Field } from './field';

export interface KeyName {
  /** Not `key`, which React keeps for itself when props are spread. */
  keyValue: string;
  name: string;
  setKey(key: string): void;
  setName(name: string): void;
  keyCheck: FieldCheck;
  nameCheck: FieldCheck;
}

export function useKeyFromName(): KeyName {
  const [name, setNameState] = useState('');
  const [key, setKeyState] = useState('');
  const [keyEdited, setKeyEdited] = useState(false);
  return {
    keyValue: key,
    name,
    setName: (n) => {
      setNameState(n);
      if (!keyEdited) setKeyState(keyFromName(n));
    },
    setKey: (k) => {
      setKeyState(k);
      setKeyEdited(true);
    },
    keyCheck: useFieldCheck(key, keyProblem),
    nameCheck: useFieldCheck(name, nameProblem),
  };
}

/** Whether the name and key may be sent; if not, shows why under the fields. */
export function keyNameReady({ keyCheck, nameCheck }: KeyName): boolean {
  keyCheck.reveal();
  nameCheck.reveal();
  return !keyCheck.problem && !nameCheck.problem;
}

/** A problem is on screen: the form's submit button waits until it is fixed. */
export const keyNameBlocked = ({ keyCheck, nameCheck }: KeyName): boolean => Boolean(keyCheck.shown || nameCheck.shown);

export function KeyNameFields({ keyValue, name, setKey, setName, keyCheck, nameCheck }: KeyName) {
  return (
    <div className="field-row">
      <Field label="Name" error={nameCheck.shown}>
        {(p) => <input {...p} required value={name} onChange={(e) => setName(e.target.value)} onBlur={nameCheck.reveal} autoFocus />}
      </Field>
      <Field label="Key" hint="Letters, digits, - _ and , only. It cannot be changed later." error={keyCheck.shown}>
        {(p) => <input {...p} required className="code" value={keyValue} onChange={(e) => setKey(e.target.value)} onBlur={keyCheck.reveal} />}
      </Field>
    </div>
  );
}

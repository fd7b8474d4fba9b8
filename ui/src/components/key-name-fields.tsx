/**
 * Name and key of something new (flag, segment, namespace): the key follows the name until it is edited by hand.
 * Keys are fixed once created, so the key is only asked here.
 */
import { useState } from 'react';
import { keyFromName } from '../lib/format';
import { Field } from './field';

export interface KeyName {
  /** Not `key`, which React keeps for itself when props are spread. */
  keyValue: string;
  name: string;
  setKey(key: string): void;
  setName(name: string): void;
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
  };
}

export function KeyNameFields({ keyValue, name, setKey, setName }: KeyName) {
  return (
    <div className="field-row">
      <Field label="Name">{(p) => <input {...p} required value={name} onChange={(e) => setName(e.target.value)} autoFocus />}</Field>
      <Field label="Key" hint="Letters, digits, - _ and , only. It cannot be changed later.">
        {(p) => <input {...p} required className="code" value={keyValue} onChange={(e) => setKey(e.target.value)} />}
      </Field>
    </div>
  );
}

import { useState } from 'react';

/**
 * Copies `text` to the clipboard. The Clipboard API exists only in secure contexts (https, localhost); elsewhere
 * the text is copied through a selected hidden textarea, which browsers still allow on a click.
 */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'copied' | 'failed'>();
  const copy = async () => {
    try {
      if (navigator.clipboard && window.isSecureContext) await navigator.clipboard.writeText(text);
      else copyBySelection(text);
      setDone('copied');
    } catch {
      setDone('failed');
    }
    setTimeout(() => setDone(undefined), 2000);
  };
  return (
    <button type="button" onClick={copy} aria-live="polite">
      {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed: select and copy by hand' : label}
    </button>
  );
}

function copyBySelection(text: string): void {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('copy refused');
}

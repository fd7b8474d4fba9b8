/** Export: downloads the namespace as a Flipt-format YAML document (`<key>.features.yml`); a failure is shown beside it. */
import { exportNamespace } from '../../api/flags-as-code';
import { useAction } from '../../hooks/use-action';

export function ExportButton({ namespace }: { namespace: string }) {
  const download = useAction(async () => {
    const text = await exportNamespace(namespace);
    const url = URL.createObjectURL(new Blob([text], { type: 'application/yaml' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: `${namespace}.features.yml` });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
  return (
    <>
      <button type="button" onClick={() => void download.run()} disabled={download.busy} aria-label={`Export namespace ${namespace}`}>
        Export
      </button>
      {download.error && (
        <span className="field-error" role="alert">
          Export failed: {download.error}
        </span>
      )}
    </>
  );
}

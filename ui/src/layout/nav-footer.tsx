/**
 * The navigation's footer (issue 43): which Flagpole this is (the version `/meta/info` reports) and where its API is
 * described — the Swagger explorer the server serves at /docs, beside the UI (a relative link, so that it follows the
 * UI wherever it is served from). No version is shown until it is read, and none when it cannot be.
 */
import { getMetaInfo } from '../api/meta';
import { useLoad } from '../hooks/use-load';

export function NavFooter() {
  const info = useLoad(['meta', 'info'], () => getMetaInfo());
  return (
    <p className="nav-footer">
      {info.data && <span className="nav-version">Flagpole {info.data.version}</span>}
      <a href="./docs" target="_blank" rel="noopener">
        API explorer
      </a>
    </p>
  );
}

/**
 * "Copy as …" buttons for the console's request: curl, and Node programs for Flipt's SDK, OpenFeature with Flipt's
 * provider, and OpenFeature with the OFREP provider. While the context is not valid there is nothing to copy: the
 * buttons stay, disabled, so the row does not jump.
 */
import { CopyButton } from '../../components/copy-button';
import { curlOf, fliptSdkSnippet, ofrepSnippet, openFeatureSnippet, TOKEN_VARIABLE, type SnippetInput } from './code-snippets';

export interface CurlRequest {
  url: string;
  body: unknown;
  headers?: Record<string, string>;
}

const COPIES: Array<{ label: string; text(s: SnippetInput, curl: CurlRequest): string }> = [
  { label: 'Copy as curl', text: (_, c) => curlOf(c.url, c.body, c.headers) },
  { label: 'Copy as Node (Flipt SDK)', text: fliptSdkSnippet },
  { label: 'Copy as OpenFeature (Flipt)', text: openFeatureSnippet },
  { label: 'Copy as OpenFeature (OFREP)', text: ofrepSnippet },
];

export function CopyCode({ snippet, curl, tokenRequired }: { snippet?: SnippetInput; curl: CurlRequest; tokenRequired: boolean }) {
  return (
    <div className="copy-code">
      <div className="copy-code-buttons" role="group" aria-label="Copy the request as code">
        {COPIES.map(({ label, text }) =>
          snippet ? (
            <CopyButton key={label} text={text(snippet, curl)} label={label} />
          ) : (
            <button key={label} type="button" disabled>
              {label}
            </button>
          ),
        )}
      </div>
      {tokenRequired && (
        <p className="hint">
          The command reads your client token from <code>${TOKEN_VARIABLE}</code>, and so does the code (
          <code>process.env.{TOKEN_VARIABLE}</code>): run <code className="nowrap">export {TOKEN_VARIABLE}=…</code> first.
        </p>
      )}
    </div>
  );
}

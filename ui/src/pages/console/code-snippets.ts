/**
 * The console's request as code to copy: a curl command, and Node programs for Flipt's server SDK, OpenFeature with
 * Flipt's provider and OpenFeature with the OFREP provider. Each one reads the token from $FLAGPOLE_TOKEN (never the
 * page's own), and embeds what the user typed as string literals (JSON.stringify), so any quote or `${` stays text.
 */
import type { EvaluationInput } from '../../api/evaluation';

/** The variable the copied code takes the token from; the console says so beside the buttons. */
export const TOKEN_VARIABLE = 'FLAGPOLE_TOKEN';

export type FlagKind = 'variant' | 'boolean';

/** A shell word: single-quoted, any quote inside closed, escaped and reopened. */
const shellWord = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/**
 * The request as a curl command. Everything the user typed is single-quoted, so the shell passes it as it is; the
 * Authorization header alone is double-quoted, so that the shell puts the token in for `$FLAGPOLE_TOKEN` (single
 * quotes would send the variable's name, and every call would answer 401).
 */
export function curlOf(url: string, body: unknown, headers: Record<string, string> = {}): string {
  const quoted = Object.entries({ 'Content-Type': 'application/json', ...headers }).map(([k, v]) => `-H ${shellWord(`${k}: ${v}`)}`);
  return `curl -s ${url} ${quoted.join(' ')} -H "Authorization: Bearer $${TOKEN_VARIABLE}" -d ${shellWord(JSON.stringify(body))}`;
}

export interface SnippetInput {
  input: EvaluationInput;
  /** Where Flagpole answers, without a trailing slash: `http://host` or `http://host/flagpole`. */
  baseUrl: string;
  kind: FlagKind;
}

const literal = (v: unknown) => JSON.stringify(v);
/** A JSON object as a JS object literal, indented to sit at `indent` inside the program. */
const objectLiteral = (v: Record<string, string>, indent: string) => JSON.stringify(v, null, 2).replace(/\n/g, `\n${indent}`);
const TOKEN = `process.env.${TOKEN_VARIABLE}`;

/** Flipt's Node server SDK, `@flipt-io/flipt`: the Flagpole API's own answer, printed with its reason. */
export function fliptSdkSnippet({ input, baseUrl, kind }: SnippetInput): string {
  return `// npm install @flipt-io/flipt   (run as an ES module, e.g. evaluate.mjs, with ${TOKEN_VARIABLE} exported)
import { ClientTokenAuthentication, FliptClient } from '@flipt-io/flipt';

const flipt = new FliptClient({
  url: ${literal(baseUrl)},
  authenticationStrategy: new ClientTokenAuthentication(${TOKEN}),
});
const answer = await flipt.evaluation.${kind}({
  namespaceKey: ${literal(input.namespaceKey)},
  flagKey: ${literal(input.flagKey)},
  entityId: ${literal(input.entityId)},
  context: ${objectLiteral(input.context, '  ')},
});
console.log(answer.${kind === 'boolean' ? 'enabled' : 'variantKey'}, answer.reason);
`;
}

/** What an OpenFeature client is asked, the same for both providers: the entity id is the targeting key. */
function openFeatureCall({ input, kind }: SnippetInput): string {
  const context = objectLiteral({ ...input.context, targetingKey: input.entityId }, '');
  const ask = kind === 'boolean' ? `getBooleanDetails(${literal(input.flagKey)}, false, context)` : `getStringDetails(${literal(input.flagKey)}, 'fallback', context)`;
  return `const context = ${context};
const details = await OpenFeature.getClient().${ask};
console.log(details.value, details.reason);
await OpenFeature.close();
`;
}

/** OpenFeature's server SDK with Flipt's provider, which calls the Flagpole API (`/evaluate/v1/...`). */
export function openFeatureSnippet(s: SnippetInput): string {
  const fallbackNote =
    s.kind === 'variant' ? `// When no rule matches, this provider answers the fallback ('fallback' below), not the flag's default variant.\n` : '';
  return `// npm install @openfeature/server-sdk @openfeature/flipt-provider @flipt-io/flipt   (run as an ES module, e.g. evaluate.mjs)
import { OpenFeature } from '@openfeature/server-sdk';
import { FliptProvider } from '@openfeature/flipt-provider';
import { ClientTokenAuthentication } from '@flipt-io/flipt';

await OpenFeature.setProviderAndWait(
  new FliptProvider(${literal(s.input.namespaceKey)}, {
    url: ${literal(s.baseUrl)},
    authenticationStrategy: new ClientTokenAuthentication(${TOKEN}),
  }),
);
${fallbackNote}${openFeatureCall(s)}`;
}

/** OpenFeature's server SDK with the OFREP provider, which calls `/ofrep/v1/evaluate/flags/{key}`. */
export function ofrepSnippet(s: SnippetInput): string {
  return `// npm install @openfeature/server-sdk @openfeature/ofrep-provider   (run as an ES module, e.g. evaluate.mjs)
import { OpenFeature } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';

await OpenFeature.setProviderAndWait(
  new OFREPProvider({
    baseUrl: ${literal(s.baseUrl)},
    headers: { Authorization: \`Bearer \${${TOKEN}}\`, 'X-Flipt-Namespace': ${literal(s.input.namespaceKey)} },
  }),
);
${openFeatureCall(s)}`;
}

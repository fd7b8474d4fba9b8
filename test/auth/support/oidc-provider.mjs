// A real OpenID Provider (the `oidc-provider` package) on loopback, run in its own Node process because the package
// is ESM-only and Jest's runtime is CommonJS. Usage: node oidc-provider.mjs '<json options>'; prints {"issuer": …}.
// Options: clientId, clientSecret, redirectUri, pkceRequired (bool), claims ({login: extra claims}, e.g. groups).
// Any login name is accepted (dev interactions); the account's claims are derived from it: sub, email
// <login>@example.com, email_verified, name, picture, plus its extra claims (`groups` comes with the profile scope).
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const options = JSON.parse(process.argv[2]);
const server = createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [{
    client_id: options.clientId,
    client_secret: options.clientSecret,
    redirect_uris: [options.redirectUri],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    id_token_signed_response_alg: 'RS256',
  }],
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: id, email: `${id}@example.com`, email_verified: true, name: `User ${id}`, picture: `https://img.example/${id}.png`,
          ...(options.claims?.[id] ?? {}),
        };
      },
    };
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture', 'groups'] },
  conformIdTokenClaims: false,
  features: { devInteractions: { enabled: true } },
  pkce: { required: () => Boolean(options.pkceRequired) },
  cookies: { keys: ['flagpole-test-cookie-key'] },
});
provider.on('server_error', (ctx, err) => console.error('oidc-provider error', err));
server.on('request', provider.callback());
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));

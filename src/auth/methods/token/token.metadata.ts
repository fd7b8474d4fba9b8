/** Metadata keys of static tokens (Flipt's `io.flipt.auth.token.*`). */
export const TOKEN_NAME = 'io.flagpole.auth.token.name';
export const TOKEN_DESCRIPTION = 'io.flagpole.auth.token.description';
export const TOKEN_NAMESPACE = 'io.flagpole.auth.token.namespace';

export const BOOTSTRAP_TOKEN_NAME = 'initial_bootstrap_token';
export const BOOTSTRAP_TOKEN_DESCRIPTION = 'Initial token created when bootstrapping authentication';

/**
 * Every authentication method, in Flipt's `GET /auth/v1/method` order. Adding a method is a folder beside this file
 * and one line here.
 */
import { GITHUB } from './github';
import { JWT } from './jwt';
import { KUBERNETES } from './kubernetes';
import type { MethodModule } from './method-module';
import { OIDC } from './oidc';
import { TOKEN } from './token';

export const METHODS: readonly MethodModule[] = [TOKEN, GITHUB, OIDC, KUBERNETES, JWT];

import type { Provider, Type } from '@nestjs/common';
import type { AuthMethod, MethodName } from '../auth-method';
import type { AuthStrategy } from '../auth-strategies';

/** How a method plugs into AuthModule: its AuthMethod, and what is mounted only while it is enabled. */
export interface MethodModule {
  name: MethodName;
  method: Type<AuthMethod>;
  /**
   * For methods whose credential comes with every request: the Passport strategy reading it, registered (with the
   * one guard) only while the method is enabled and tried before client tokens. Methods that issue client tokens
   * need none: the client-token strategy reads what they issue.
   */
  strategy?: Type<AuthStrategy>;
  controllers?: Type[];
  providers?: Provider[];
}

import type { Provider, Type } from '@nestjs/common';
import type { AuthMethod, MethodName } from '../auth-method';

/** How a method plugs into AuthModule: its AuthMethod, and what is mounted only while it is enabled. */
export interface MethodModule {
  name: MethodName;
  method: Type<AuthMethod>;
  /**
   * For methods whose credential comes with every request: a Passport strategy named after the method, which the
   * one guard runs before looking up client tokens. Methods that issue client tokens need none.
   */
  strategy?: Type;
  controllers?: Type[];
  providers?: Provider[];
}

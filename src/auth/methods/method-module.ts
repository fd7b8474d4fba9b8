import type { Provider, Type } from '@nestjs/common';
import type { AuthMethod, MethodName } from '../auth-method';

/** How a method plugs into AuthModule: its AuthMethod, and what is mounted only while it is enabled. */
export interface MethodModule {
  name: MethodName;
  method: Type<AuthMethod>;
  controllers?: Type[];
  providers?: Provider[];
}

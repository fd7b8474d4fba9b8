import type { MethodModule } from '../method-module';
import { JwtMethod } from './jwt.method';
import { JwtStrategy } from './jwt.strategy';

/** No routes: JWTs are presented on every request, and read by the method's Passport strategy. */
export const JWT: MethodModule = { name: 'jwt', method: JwtMethod, strategy: JwtStrategy };

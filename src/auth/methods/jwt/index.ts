import type { MethodModule } from '../method-module';
import { JwtMethod } from './jwt.method';

/** No routes: JWTs are presented on every request. */
export const JWT: MethodModule = { name: 'jwt', method: JwtMethod };

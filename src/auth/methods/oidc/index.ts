import type { MethodModule } from '../method-module';
import { OidcController } from './oidc.controller';
import { OidcMethod } from './oidc.method';
import { OidcService } from './oidc.service';

export const OIDC: MethodModule = { name: 'oidc', method: OidcMethod, controllers: [OidcController], providers: [OidcService] };

import type { MethodModule } from '../method-module';
import { TokenBootstrap } from './token-bootstrap';
import { TokenController } from './token.controller';
import { TokenMethod } from './token.method';
import { TokenService } from './token.service';

export const TOKEN: MethodModule = {
  name: 'token',
  method: TokenMethod,
  controllers: [TokenController],
  providers: [TokenService, TokenBootstrap],
};

import type { MethodModule } from '../method-module';
import { GithubController } from './github.controller';
import { GithubMethod } from './github.method';
import { GithubService } from './github.service';

export const GITHUB: MethodModule = { name: 'github', method: GithubMethod, controllers: [GithubController], providers: [GithubService] };

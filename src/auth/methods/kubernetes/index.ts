import type { MethodModule } from '../method-module';
import { KubernetesController } from './kubernetes.controller';
import { KubernetesMethod } from './kubernetes.method';
import { KubernetesService } from './kubernetes.service';

export const KUBERNETES: MethodModule = {
  name: 'kubernetes',
  method: KubernetesMethod,
  controllers: [KubernetesController],
  providers: [KubernetesService],
};

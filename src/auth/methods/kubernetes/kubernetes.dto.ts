import { StringField } from '../../../common/dto-fields';

export class ServiceAccountRequest {
  @StringField({ required: true, description: "The pod's service-account token (`service_account_token` is accepted too)" })
  serviceAccountToken?: string;
}

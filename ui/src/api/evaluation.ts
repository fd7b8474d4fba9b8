import { api, enc } from './client';
import type { BooleanEvaluation, OfrepEvaluation, VariantEvaluation } from './types';

export interface EvaluationInput {
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

export const evaluateVariant = (input: EvaluationInput) => api.post<VariantEvaluation>('evaluate/v1/variant', input);

export const evaluateBoolean = (input: EvaluationInput) => api.post<BooleanEvaluation>('evaluate/v1/boolean', input);

/**
 * The same evaluation as an OpenFeature OFREP provider asks for it: the namespace in a header, the entity id as the
 * context's `targetingKey`. One place for the request, so the console's curl command is the call it made.
 */
export function ofrepRequest(input: EvaluationInput) {
  return {
    path: `ofrep/v1/evaluate/flags/${enc(input.flagKey)}`,
    headers: { 'X-Flipt-Namespace': input.namespaceKey },
    body: { context: { ...input.context, targetingKey: input.entityId } },
  };
}

export function evaluateOfrep(input: EvaluationInput) {
  const { path, headers, body } = ofrepRequest(input);
  return api.post<OfrepEvaluation>(path, body, { headers });
}

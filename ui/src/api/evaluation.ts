import { api } from './client';
import type { BooleanEvaluation, VariantEvaluation } from './types';

export interface EvaluationInput {
  namespaceKey: string;
  flagKey: string;
  entityId: string;
  context: Record<string, string>;
}

export const evaluateVariant = (input: EvaluationInput) => api.post<VariantEvaluation>('evaluate/v1/variant', input);

export const evaluateBoolean = (input: EvaluationInput) => api.post<BooleanEvaluation>('evaluate/v1/boolean', input);

/**
 * The one error the core throws. It carries a kind instead of a status so that the core stays free of HTTP; the
 * evaluation service maps NOT_FOUND to NotFound (404) and INVALID to InvalidArgument (400). Messages are Flipt's
 * exact texts because clients show them to users.
 */
export type EvaluationErrorKind = 'NOT_FOUND' | 'INVALID';

export class EvaluationError extends Error {
  constructor(
    readonly kind: EvaluationErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'EvaluationError';
  }
}

export function flagNotFound(namespaceKey: string, flagKey: string): EvaluationError {
  return new EvaluationError('NOT_FOUND', `flag "${namespaceKey}/${flagKey}" not found`);
}

export function unknownConstraintType(): EvaluationError {
  return new EvaluationError('INVALID', 'unknown constraint type');
}

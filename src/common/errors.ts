/**
 * Domain errors. Services throw only these; the one error filter (error.filter.ts) turns them into Flipt's
 * `{code, message, details}` body with the gRPC code and HTTP status of the table in grpc-status.ts.
 */
import { GrpcCode } from './grpc-status';

export abstract class DomainError extends Error {
  abstract readonly code: GrpcCode;
}

/** `<what> not found` → NotFound (404). */
export class NotFoundError extends DomainError {
  readonly code = GrpcCode.NotFound;
  constructor(what: string) {
    super(`${what} not found`);
  }
}

/** A request that can never succeed as sent → InvalidArgument (400). */
export class InvalidError extends DomainError {
  readonly code = GrpcCode.InvalidArgument;
}

/**
 * A request body that is not JSON (or nests deeper than allowed) → InvalidArgument (400). Its own class so that a route
 * answering in another error format (OFREP's PARSE_ERROR) can tell it from a well-formed body with bad values.
 */
export class MalformedBodyError extends InvalidError {}

/** `invalid field <field>: <reason>` → InvalidArgument (400). */
export class ValidationError extends InvalidError {
  /** The field and reason apart, for callers that name the field their own way (a document's line and path). */
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`invalid field ${field}: ${reason}`);
  }
}

/** `invalid field <field>: must not be empty`. */
export class EmptyFieldError extends ValidationError {
  constructor(field: string) {
    super(field, 'must not be empty');
  }
}

/** No or bad credentials → Unauthenticated (401). */
export class UnauthenticatedError extends DomainError {
  readonly code = GrpcCode.Unauthenticated;
  constructor(message = 'request was not authenticated') {
    super(message);
  }
}

/** Authenticated but not allowed → PermissionDenied (403). */
export class PermissionDeniedError extends DomainError {
  readonly code = GrpcCode.PermissionDenied;
  constructor(message = 'permission denied') {
    super(message);
  }
}

/**
 * A write to flag state that is served from files (`storage.type: local`): Flipt's message. Flipt answers it with
 * 500; Flagpole with FailedPrecondition (400), as it is the request, not the server, that is wrong.
 */
export class ReadOnlyError extends DomainError {
  readonly code = GrpcCode.FailedPrecondition;
  constructor() {
    super('modification is not allowed in read-only mode');
  }
}

/** A request that cannot apply in the server's current state (its settings, the thing's status) → FailedPrecondition (400). */
export class FailedPreconditionError extends DomainError {
  readonly code = GrpcCode.FailedPrecondition;
}

/** A change that met another in flight (retry it) → Aborted (409). */
export class AbortedError extends DomainError {
  readonly code = GrpcCode.Aborted;
}

/** A dependency (the database) is down → Unavailable (503). */
export class UnavailableError extends DomainError {
  readonly code = GrpcCode.Unavailable;
}

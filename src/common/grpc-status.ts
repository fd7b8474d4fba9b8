/** gRPC status codes as Flipt's gateway puts them in error bodies, and the HTTP status each maps to. */
export enum GrpcCode {
  OK = 0,
  Canceled = 1,
  Unknown = 2,
  InvalidArgument = 3,
  DeadlineExceeded = 4,
  NotFound = 5,
  AlreadyExists = 6,
  PermissionDenied = 7,
  ResourceExhausted = 8,
  FailedPrecondition = 9,
  Aborted = 10,
  OutOfRange = 11,
  Unimplemented = 12,
  Internal = 13,
  Unavailable = 14,
  DataLoss = 15,
  Unauthenticated = 16,
}

const HTTP_STATUS: Record<GrpcCode, number> = {
  [GrpcCode.OK]: 200,
  [GrpcCode.Canceled]: 499,
  [GrpcCode.Unknown]: 500,
  [GrpcCode.InvalidArgument]: 400,
  [GrpcCode.DeadlineExceeded]: 504,
  [GrpcCode.NotFound]: 404,
  [GrpcCode.AlreadyExists]: 409,
  [GrpcCode.PermissionDenied]: 403,
  [GrpcCode.ResourceExhausted]: 429,
  [GrpcCode.FailedPrecondition]: 400,
  [GrpcCode.Aborted]: 409,
  [GrpcCode.OutOfRange]: 400,
  [GrpcCode.Unimplemented]: 501,
  [GrpcCode.Internal]: 500,
  [GrpcCode.Unavailable]: 503,
  [GrpcCode.DataLoss]: 500,
  [GrpcCode.Unauthenticated]: 401,
};

export function httpStatusOf(code: GrpcCode): number {
  return HTTP_STATUS[code] ?? 500;
}

/** The reverse direction, for errors that arrive as an HTTP status (framework and parser errors). */
export function grpcCodeOfHttpStatus(status: number): GrpcCode {
  switch (status) {
    case 400: return GrpcCode.InvalidArgument;
    case 401: return GrpcCode.Unauthenticated;
    case 403: return GrpcCode.PermissionDenied;
    case 404: return GrpcCode.NotFound;
    case 405: return GrpcCode.Unimplemented;
    case 408: return GrpcCode.DeadlineExceeded;
    case 409: return GrpcCode.AlreadyExists;
    case 413: return GrpcCode.InvalidArgument;
    case 415: return GrpcCode.InvalidArgument;
    case 429: return GrpcCode.ResourceExhausted;
    case 501: return GrpcCode.Unimplemented;
    case 503: return GrpcCode.Unavailable;
    case 504: return GrpcCode.DeadlineExceeded;
    default: return status >= 500 ? GrpcCode.Internal : GrpcCode.InvalidArgument;
  }
}

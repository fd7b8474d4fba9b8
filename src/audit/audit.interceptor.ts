import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { tap, type Observable } from 'rxjs';
import { PermissionDeniedError } from '../common/errors';
import { AuditRecorder, type AuditedRequest } from './audit-recorder.service';

/**
 * Records the audit event of an `@Audited` route after its handler succeeded (its transaction committed), and a
 * `denied` one when the handler refused the write itself (PermissionDeniedError: a token that would outgrant its
 * creator); any other failure records nothing. A write the guard refused is recorded by the AuditRecorder. Nest makes
 * one of these per module that uses it: it holds no state and leaves the work to the one AuditRecorder.
 */
@Injectable()
export class AuditInterceptor implements NestInterceptor {
  constructor(private readonly recorder: AuditRecorder) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const route = this.recorder.routeOf(context);
    if (!route) return next.handle();
    const request = context.switchToHttp().getRequest<AuditedRequest>();
    return next.handle().pipe(
      tap({
        next: (answer) => this.recorder.committed(route, request, answer),
        error: (e: unknown) => {
          if (e instanceof PermissionDeniedError) this.recorder.denied(context);
        },
      }),
    );
  }
}

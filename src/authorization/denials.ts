/**
 * Where the one guard reports a request authorization refused, for whoever keeps a record of refusals (the audit
 * trail records `denied` events for its audited routes). A seam, so that the guard knows nothing of audit.
 */
import { Injectable, type ExecutionContext } from '@nestjs/common';

export type DenialListener = (context: ExecutionContext) => void;

@Injectable()
export class Denials {
  private readonly listeners: DenialListener[] = [];

  listen(listener: DenialListener): void {
    this.listeners.push(listener);
  }

  report(context: ExecutionContext): void {
    for (const listener of this.listeners) listener(context);
  }
}

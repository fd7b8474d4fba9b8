/**
 * The time of Flagpole's own periodic decisions: when a scheduled change is due, how old a flag is for its lifecycle.
 * A provider of its own (one per application, global) so that tests move it with `jest.spyOn(app.get(Clock), 'now')`
 * instead of waiting; everything else in Flagpole reads the system clock.
 */
import { Global, Injectable, Module } from '@nestjs/common';

@Injectable()
export class Clock {
  /** Milliseconds since the epoch. */
  now(): number {
    return Date.now();
  }
}

@Global()
@Module({ providers: [Clock], exports: [Clock] })
export class ClockModule {}

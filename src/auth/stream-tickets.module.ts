/** Stream tickets for both their sides: OFREP's bulk answers issue them, the one guard's ticket strategy reads them. */
import { Global, Module } from '@nestjs/common';
import { StreamTickets } from './stream-tickets.service';

@Global()
@Module({ providers: [StreamTickets], exports: [StreamTickets] })
export class StreamTicketsModule {}

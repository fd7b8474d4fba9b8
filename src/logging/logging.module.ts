import { Module } from '@nestjs/common';
import { RequestLogger } from './request-log';

@Module({ providers: [RequestLogger] })
export class LoggingModule {}

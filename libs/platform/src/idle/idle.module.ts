import { Module } from '@nestjs/common';
import { keyedStore } from '../redis/store-providers';
import { IdleStateStore } from './idle-state-store';
import { KeepAliveStore } from './keep-alive-store';

/** Each pod's idle state and its keep-alive. */
@Module({
  providers: [keyedStore(IdleStateStore), keyedStore(KeepAliveStore)],
  exports: [IdleStateStore, KeepAliveStore],
})
export class IdleModule {}

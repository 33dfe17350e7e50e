import { Module } from '@nestjs/common';
import { clockedStore } from '../redis/store-providers';
import { ProxyActivityStore } from './proxy-activity-store';

/** The inference proxy's activity (in-flight leases, last-ended), on Redis's clock. */
@Module({
  providers: [clockedStore(ProxyActivityStore)],
  exports: [ProxyActivityStore],
})
export class ProxyActivityModule {}

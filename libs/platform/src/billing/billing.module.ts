import { Module } from '@nestjs/common';
import { keyedStore } from '../redis/store-providers';
import { BillingStore } from './billing-store';

/** RunPod's billing as the reconcile job last read it. */
@Module({
  providers: [keyedStore(BillingStore)],
  exports: [BillingStore],
})
export class BillingModule {}

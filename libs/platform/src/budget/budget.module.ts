import { Module } from '@nestjs/common';
import { clockedStore } from '../redis/store-providers';
import { BudgetLedger } from './budget-ledger';

/** The shared daily-budget ledger (settled spend, one reservation per pod), on Redis's clock. */
@Module({
  providers: [clockedStore(BudgetLedger)],
  exports: [BudgetLedger],
})
export class BudgetModule {}

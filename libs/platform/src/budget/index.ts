export * from './budget-ledger';
export * from './budget.module';

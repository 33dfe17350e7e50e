export * from './billing-store';
export * from './billing.module';

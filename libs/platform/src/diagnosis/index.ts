export * from './diagnosis-store';
export * from './diagnosis.module';

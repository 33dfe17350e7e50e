export * from './proxy-activity-store';
export * from './proxy-activity.module';

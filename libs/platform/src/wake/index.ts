export * from './wake-report';
export * from './wake-progress';
export * from './wake-gate';
export * from './wake-fence';
export * from './enqueue-wake';
export * from './wake.module';

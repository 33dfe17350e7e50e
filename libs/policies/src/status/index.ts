export * from './status-freshness';
export * from './ready-estimate';

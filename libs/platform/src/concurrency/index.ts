export * from './map-bounded';

// The one Redis test helper lives in libs/testing; end-to-end specs reach it from here.
export { deleteKeysUnder, deletePrefix } from '@podwarden/testing';

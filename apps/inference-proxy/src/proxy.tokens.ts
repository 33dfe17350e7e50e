/** Injection token of the undici forwarder (a plain class with its own connection pool). */
export const FORWARDER = Symbol('FORWARDER');

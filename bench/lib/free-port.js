'use strict';
// A port nobody listens on right now (the OS picks it): test/support/free-port.ts, as the launcher loads it.
module.exports = { freePort: require('./launcher')['free-port'].freePort };

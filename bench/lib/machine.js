'use strict';
const os = require('node:os');

/** What the numbers were measured on: they mean little without it. */
function machineLine() {
  const cpus = os.cpus();
  const model = cpus.length > 0 ? cpus[0].model.replace(/\s+/g, ' ').trim() : 'unknown CPU';
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `nproc ${os.availableParallelism()} (${model}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, node ${process.version}, ${os.platform()} ${os.release()}, load average at start ${load}`;
}

module.exports = { machineLine };

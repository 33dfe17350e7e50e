// The end-to-end specs' environment: Node's, plus one guarantee. A spec that
// fails before it stops its app processes must not leave them running: their
// pipes would keep Jest from exiting (a CI run that never ends) and they would
// keep working on Redis. Teardown runs after every hook of the file.
const { TestEnvironment } = require('jest-environment-node');

class EndToEndEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    this.global.__podwardenChildren = new Set();
  }

  async teardown() {
    const children = this.global.__podwardenChildren ?? new Set();
    const left = [...children].filter((child) => child.exitCode === null && child.signalCode === null);
    for (const child of left) {
      process.stderr.write(
        `e2e teardown: app process ${child.pid} left running by ${this.testPath}; killed\n`,
      );
      child.kill('SIGKILL');
    }
    await Promise.all(left.map((child) => new Promise((done) => child.once('exit', done))));
    await super.teardown();
  }

  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
  }
}

module.exports = EndToEndEnvironment;

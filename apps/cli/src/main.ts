import { processRuntime } from './cli-runtime';
import { runCli } from './run-cli';

// The podwarden command (the package's bin; the build adds the shebang line).
void runCli(process.argv, processRuntime()).then((code) => {
  // Exit once stdout has taken the document: an idle keep-alive socket must not hold the process open.
  process.stdout.write('', () => process.exit(code));
});

import { Command, Option } from 'commander';
import { CommandContext, type GlobalOptions } from './command-context';
import { registerDiagnose } from './commands/diagnose.command';
import { registerEvents } from './commands/events.command';
import { registerHistory } from './commands/history.command';
import { registerKeepAlive } from './commands/keep-alive.command';
import type { RunCommand } from './commands/run-command';
import { registerStart } from './commands/start.command';
import { registerStatus } from './commands/status.command';
import { registerStop } from './commands/stop.command';
import { registerWhatIf } from './commands/what-if.command';
import type { CliRuntime } from './cli-runtime';
import { DEFAULT_GATEWAY_URL } from './gateway/gateway-settings';

/** Where a command's one JSON document lands until the process prints it. */
export interface DocumentSink {
  document: unknown;
}

const OVERVIEW = `
stdout carries exactly one JSON document per command (events: one per line);
progress goes to stderr. Errors are one JSON object with a stable "code".
See docs/cli.md for the shapes, the codes and the exit codes.`;

/**
 * The podwarden command line. Parse errors are not printed by commander: they
 * are thrown (exitOverride) and reported as one bad_request JSON object.
 */
export function buildProgram(runtime: CliRuntime, sink: DocumentSink): Command {
  const program = new Command('podwarden')
    .description(
      'Drive podwarden pods from a terminal or a script: status, start (and wait), stop, history, keepalive, events, diagnose, what-if',
    )
    .addOption(new Option('--url <url>', 'the gateway').env('PODWARDEN_URL').default(DEFAULT_GATEWAY_URL))
    .addOption(
      new Option('--token <token>', 'operator or wake token, sent as X-Rig-Operator-Token').env(
        'PODWARDEN_TOKEN',
      ),
    )
    .addHelpText('after', OVERVIEW)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => runtime.out(text),
      writeErr: (text) => runtime.err(text),
      outputError: () => undefined,
    })
    .showSuggestionAfterError(true);

  // Commands are added after exitOverride and configureOutput, so they inherit both.
  const run: RunCommand = async (command, work) => {
    const context = new CommandContext(runtime, command.optsWithGlobals<GlobalOptions>());
    sink.document = await work(context);
  };
  for (const register of [
    registerStatus,
    registerStart,
    registerStop,
    registerHistory,
    registerKeepAlive,
    registerEvents,
    registerWhatIf,
    registerDiagnose,
  ]) {
    register(program, run);
  }
  return program;
}

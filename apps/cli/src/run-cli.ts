import { CommanderError } from 'commander';
import { buildProgram, type DocumentSink } from './cli-program';
import { formatDocument, type CliRuntime } from './cli-runtime';
import { CliError, INTERNAL_ERROR_EXIT } from './output/cli-error';

// Commander's ways of ending without an error: --help and --version.
const CLEAN_EXITS = new Set(['commander.helpDisplayed', 'commander.version']);

function usageError(error: CommanderError): CliError {
  const message = error.message.replace(/^error: /, '');
  return new CliError(
    'bad_request',
    error.code === 'commander.help' ? 'a command is required; see podwarden --help' : message,
  );
}

/** Runs one command line and returns the exit code; stdout gets one JSON document (or events' lines). */
export async function runCli(argv: readonly string[], runtime: CliRuntime): Promise<number> {
  const sink: DocumentSink = { document: null };
  try {
    await buildProgram(runtime, sink).parseAsync([...argv]);
    if (sink.document !== null) runtime.out(formatDocument(sink.document, runtime.stdoutIsTty));
    return 0;
  } catch (error) {
    if (error instanceof CommanderError && CLEAN_EXITS.has(error.code)) return 0;
    const failure =
      error instanceof CliError
        ? error
        : error instanceof CommanderError
          ? usageError(error)
          : new CliError(
              'failed',
              `internal error in the CLI: ${error instanceof Error ? error.message : String(error)}`,
            );
    runtime.out(formatDocument(failure.document(), runtime.stdoutIsTty));
    return error instanceof CliError || error instanceof CommanderError
      ? failure.exitCode
      : INTERNAL_ERROR_EXIT;
  }
}

import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { examples, type RunCommand } from './run-command';

/** GET /api/pods/{name}, or GET /api/pods without a name; the gateway's JSON as it is. */
export async function showStatus(context: CommandContext, name: string | undefined): Promise<unknown> {
  return requireOk(await context.client.get(name === undefined ? '/api/pods' : podPath(name))).body;
}

export function registerStatus(program: Command, run: RunCommand): void {
  program
    .command('status')
    .argument('[name]', 'pod name (case-insensitive); every configured pod when omitted')
    .description(
      'Show a pod: status, readiness (readySince), the wake in flight and the last one, the idle window in force (idleWindow) and the next pre-wake (nextPrewakeAt)',
    )
    .addHelpText(
      'after',
      examples(
        'podwarden status',
        'podwarden status qwen',
        "podwarden status qwen | jq -r '.readySince'",
        "podwarden status qwen | jq '{idleWindow, nextPrewakeAt}'",
      ),
    )
    .action((name: string | undefined, _options: unknown, command: Command) =>
      run(command, (context) => showStatus(context, name)),
    );
}

import type { Command } from 'commander';
import type { CommandContext } from '../command-context';
import { requireOk } from '../gateway/answer-verdict';
import { podPath } from '../gateway/gateway-client';
import { CliError } from '../output/cli-error';
import { examples, type RunCommand } from './run-command';

/** A whole number ≥ 1; the gateway checks the upper bound and answers 400 past it. */
export function parseLimit(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d{1,6}$/.test(text.trim()) || Number(text) < 1) {
    throw new CliError(
      'bad_request',
      `--limit must be a whole number of 1 or more, not ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}

/** GET …/history: billable actions and wake attempts, newest first. */
export async function showHistory(
  context: CommandContext,
  name: string,
  rawLimit: string | undefined,
): Promise<unknown> {
  const limit = parseLimit(rawLimit);
  const query = limit === null ? '' : `?limit=${limit}`;
  return requireOk(await context.client.get(podPath(name, `/history${query}`))).body;
}

export function registerHistory(program: Command, run: RunCommand): void {
  program
    .command('history')
    .argument('<name>', 'pod name (case-insensitive)')
    .option('--limit <n>', 'entries per list (the gateway allows 1 to 200; default 20)')
    .description('Show the billable actions (start, create, stop, terminate) and the wakes, newest first')
    .addHelpText(
      'after',
      examples(
        'podwarden history qwen --limit 5',
        "podwarden history qwen | jq '.actions[] | select(.ok == false)'",
      ),
    )
    .action((name: string, options: { limit?: string }, command: Command) =>
      run(command, (context) => showHistory(context, name, options.limit)),
    );
}

import type { Command } from 'commander';
import type { CommandContext } from '../command-context';

/**
 * Runs a command's work with a context built from its merged options. The
 * work returns the one JSON document to print, or null when it printed its
 * own lines (events); an error it throws is printed as one JSON object.
 */
export type RunCommand = (
  command: Command,
  work: (context: CommandContext) => Promise<unknown>,
) => Promise<void>;

/** The "Examples:" block every command's --help ends with. */
export function examples(...lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

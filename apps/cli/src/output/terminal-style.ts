/**
 * Colour only for a person at a terminal: never when stderr is a pipe or a
 * file, never with NO_COLOR set (no-color.org) or on a dumb terminal.
 */
export function useColour(isTty: boolean, env: NodeJS.ProcessEnv): boolean {
  if (!isTty) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return env.TERM !== 'dumb';
}

export interface TerminalStyle {
  dim(text: string): string;
  warn(text: string): string;
}

const PLAIN: TerminalStyle = { dim: (text) => text, warn: (text) => text };
const COLOURED: TerminalStyle = {
  dim: (text) => `\x1b[2m${text}\x1b[22m`,
  warn: (text) => `\x1b[33m${text}\x1b[39m`,
};

export function terminalStyle(colour: boolean): TerminalStyle {
  return colour ? COLOURED : PLAIN;
}

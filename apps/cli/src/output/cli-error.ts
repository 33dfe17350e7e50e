/**
 * The stable error codes. Scripts and agents branch on them, so they never
 * change meaning; the message is for people and may change.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'not_found'
  | 'failed'
  | 'refused'
  | 'unreachable'
  | 'wait_timeout'
  | 'wait_interrupted';

/** One exit code per error code (docs/cli.md lists them); 130 is the shell's convention for Ctrl-C. */
export const EXIT_CODES: Readonly<Record<ErrorCode, number>> = {
  bad_request: 2,
  unauthorized: 3,
  not_found: 4,
  failed: 5,
  refused: 6,
  unreachable: 7,
  wait_timeout: 8,
  wait_interrupted: 130,
};

/** A fault in the CLI itself (a bug), not an answer from the gateway. */
export const INTERNAL_ERROR_EXIT = 1;

/** An error the CLI reports as one JSON object on stdout: the code, a message, and data such as ids. */
export class CliError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'CliError';
  }

  get exitCode(): number {
    return EXIT_CODES[this.code];
  }

  /** The document printed on stdout: the code and the message first; data never overrides them. */
  document(): Record<string, unknown> {
    const { code: _code, message: _message, ...data } = this.fields;
    return { code: this.code, message: this.message, ...data };
  }

  /** The same error with more data (ids learned later, the last status read). */
  with(fields: Readonly<Record<string, unknown>>): CliError {
    return new CliError(this.code, this.message, { ...this.fields, ...fields });
  }

  /** The same error with `fields` filling in only what it does not already say (an id from the answer wins). */
  withDefaults(fields: Readonly<Record<string, unknown>>): CliError {
    const missing = Object.entries(fields).filter(
      ([key]) => this.fields[key] === undefined || this.fields[key] === null,
    );
    return this.with(Object.fromEntries(missing));
  }
}

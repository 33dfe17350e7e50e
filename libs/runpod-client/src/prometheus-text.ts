/** One sample of the Prometheus text exposition format. */
export interface PrometheusSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const METRIC_NAME_START = /[a-zA-Z_:]/;
const METRIC_NAME_CHAR = /[a-zA-Z0-9_:]/;
const LABEL_NAME_START = /[a-zA-Z_]/;
const LABEL_NAME_CHAR = /[a-zA-Z0-9_]/;
const DECIMAL_FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TIMESTAMP = /^-?\d+(?:\.\d+)?$/;

/**
 * Parses the text exposition format (version 0.0.4, plus OpenMetrics-style
 * exemplars and float timestamps). Comments and HELP/TYPE lines are skipped; a
 * malformed line is dropped on its own and never poisons the rest of the scrape.
 */
export function parsePrometheusText(text: string): PrometheusSample[] {
  const samples: PrometheusSample[] = [];
  for (const rawLine of text.split(/\r\n|\n|\r/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    const sample = parseSampleLine(line);
    if (sample !== null) {
      samples.push(sample);
    }
  }
  return samples;
}

function parseSampleLine(line: string): PrometheusSample | null {
  const cursor = { line, at: 0 };
  const name = readName(cursor, METRIC_NAME_START, METRIC_NAME_CHAR);
  if (name === null) {
    return null;
  }
  skipBlanks(cursor);
  let labels: Record<string, string> = {};
  if (line[cursor.at] === '{') {
    cursor.at += 1;
    const parsed = readLabelSet(cursor);
    if (parsed === null) {
      return null;
    }
    labels = parsed;
  }
  const value = readValueAndTimestamp(line.slice(cursor.at));
  return value === null ? null : { name, labels, value };
}

interface Cursor {
  readonly line: string;
  at: number;
}

function readName(cursor: Cursor, start: RegExp, rest: RegExp): string | null {
  const first = cursor.line[cursor.at];
  if (first === undefined || !start.test(first)) {
    return null;
  }
  const from = cursor.at;
  cursor.at += 1;
  while (cursor.at < cursor.line.length && rest.test(cursor.line[cursor.at])) {
    cursor.at += 1;
  }
  return cursor.line.slice(from, cursor.at);
}

function skipBlanks(cursor: Cursor): void {
  while (cursor.line[cursor.at] === ' ' || cursor.line[cursor.at] === '\t') {
    cursor.at += 1;
  }
}

/** Reads `name="value", ...}` after the opening brace; a trailing comma is allowed, duplicates are not. */
function readLabelSet(cursor: Cursor): Record<string, string> | null {
  const entries: [string, string][] = [];
  for (;;) {
    skipBlanks(cursor);
    if (cursor.line[cursor.at] === '}') {
      cursor.at += 1;
      break;
    }
    const labelName = readName(cursor, LABEL_NAME_START, LABEL_NAME_CHAR);
    if (labelName === null || entries.some(([existing]) => existing === labelName)) {
      return null;
    }
    skipBlanks(cursor);
    if (cursor.line[cursor.at] !== '=') {
      return null;
    }
    cursor.at += 1;
    skipBlanks(cursor);
    const labelValue = readQuotedValue(cursor);
    if (labelValue === null) {
      return null;
    }
    entries.push([labelName, labelValue]);
    skipBlanks(cursor);
    const separator = cursor.line[cursor.at];
    if (separator === ',') {
      cursor.at += 1;
    } else if (separator !== '}') {
      return null;
    }
  }
  // fromEntries defines own properties, so a label called __proto__ stays a label.
  return Object.fromEntries(entries);
}

/** A double-quoted label value with the format's three escapes: \\, \" and \n. */
function readQuotedValue(cursor: Cursor): string | null {
  if (cursor.line[cursor.at] !== '"') {
    return null;
  }
  cursor.at += 1;
  let value = '';
  while (cursor.at < cursor.line.length) {
    const char = cursor.line[cursor.at];
    if (char === '"') {
      cursor.at += 1;
      return value;
    }
    if (char === '\\') {
      const escaped = cursor.line[cursor.at + 1];
      if (escaped === undefined) {
        return null;
      }
      // An unknown escape is kept verbatim rather than dropping the sample.
      value += escaped === 'n' ? '\n' : escaped === '\\' || escaped === '"' ? escaped : `\\${escaped}`;
      cursor.at += 2;
      continue;
    }
    value += char;
    cursor.at += 1;
  }
  return null;
}

function readValueAndTimestamp(rest: string): number | null {
  const exemplarAt = rest.indexOf(' # ');
  const tokens = (exemplarAt === -1 ? rest : rest.slice(0, exemplarAt)).trim().split(/[ \t]+/);
  if (tokens.length < 1 || tokens.length > 2 || tokens[0] === '') {
    return null;
  }
  if (tokens.length === 2 && !TIMESTAMP.test(tokens[1])) {
    return null;
  }
  return parseSampleValue(tokens[0]);
}

/** Go's ParseFloat spellings as Prometheus writes them: decimals, exponents, ±Inf, NaN. */
export function parseSampleValue(token: string): number | null {
  if (DECIMAL_FLOAT.test(token)) {
    return Number(token);
  }
  switch (token.toLowerCase()) {
    case 'inf':
    case '+inf':
    case 'infinity':
    case '+infinity':
      return Number.POSITIVE_INFINITY;
    case '-inf':
    case '-infinity':
      return Number.NEGATIVE_INFINITY;
    case 'nan':
      return Number.NaN;
    default:
      return null;
  }
}

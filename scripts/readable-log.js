'use strict';
// One readable line per JSON log line, for `npm start` only: the apps log
// JSON (pino) everywhere else, and a line that is not JSON passes as it is.

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS = { 40: 33, 50: 31, 60: 31 };
const SKIPPED = new Set(['level', 'time', 'app', 'name', 'pid', 'hostname', 'msg', 'v']);

function valueText(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /\s/.test(text) && typeof value === 'string' ? JSON.stringify(text) : text;
}

/** `HH:MM:SS LEVEL message key=value …` from a pino line; anything else unchanged. */
function readableLine(line, colour = false) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (entry === null || typeof entry !== 'object' || typeof entry.level !== 'number') return line;
  const time = typeof entry.time === 'string' ? entry.time.slice(11, 19) : '';
  let level = (LEVELS[entry.level] || String(entry.level)).padEnd(5);
  if (colour && COLOURS[entry.level]) level = `\x1b[${COLOURS[entry.level]}m${level}\x1b[0m`;
  const fields = Object.entries(entry)
    .filter(([key]) => !SKIPPED.has(key))
    .map(([key, value]) => `${key}=${valueText(value)}`);
  return [time, level, entry.msg ?? '', ...fields].filter((part) => part !== '').join(' ');
}

module.exports = { readableLine };

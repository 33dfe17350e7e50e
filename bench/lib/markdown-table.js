'use strict';

/** A GitHub markdown table from a header row and body rows (cells are stringified). */
function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.map((c) => String(c)).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

module.exports = { markdownTable };

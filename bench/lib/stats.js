'use strict';

/** Nearest-rank percentile (p in 0..100) of a list of numbers. */
function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1];
}

function mean(values) {
  return values.length === 0 ? NaN : values.reduce((sum, v) => sum + v, 0) / values.length;
}

function median(values) {
  return percentile(values, 50);
}

/** A number with a fixed count of decimals, for tables. */
function fixed(value, decimals = 1) {
  return Number.isFinite(value) ? value.toFixed(decimals) : String(value);
}

module.exports = { percentile, mean, median, fixed };

'use strict';
const { execFileSync } = require('node:child_process');
const { ROOT } = require('./app-process');

/** The checked-out commit a run measured, marked when tracked files differ from it. */
function gitCommit() {
  try {
    const git = (...args) => execFileSync('git', args, { cwd: ROOT }).toString().trim();
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return `${git('rev-parse', '--short', 'HEAD')}${dirty ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

module.exports = { gitCommit };

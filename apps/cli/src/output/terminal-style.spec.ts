import { terminalStyle, useColour } from './terminal-style';

describe(useColour.name, () => {
  it.each([
    ['a terminal', true, {}, true],
    ['a pipe or a file', false, {}, false],
    ['NO_COLOR set', true, { NO_COLOR: '1' }, false],
    ['NO_COLOR empty (means unset)', true, { NO_COLOR: '' }, true],
    ['a dumb terminal', true, { TERM: 'dumb' }, false],
  ])('%s: %p', (_what, isTty, env, colour) => {
    expect(useColour(isTty as boolean, env as NodeJS.ProcessEnv)).toBe(colour);
  });
});

describe(terminalStyle.name, () => {
  it('plain style adds no escape codes; coloured style does', () => {
    expect(terminalStyle(false).dim('x') + terminalStyle(false).warn('y')).toBe('xy');
    expect(terminalStyle(true).dim('x')).toContain('\x1b[');
  });
});

import { presentedToken } from './presented-token';

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

describe(presentedToken.name, () => {
  it.each([
    ['the header wins over basic auth', 'hdr', basic('u:pw'), 'hdr'],
    ['basic auth password with any username', undefined, basic('anyone:pw'), 'pw'],
    ['basic auth with an empty username', undefined, basic(':pw'), 'pw'],
    ['a password containing colons is kept whole', undefined, basic('u:p:w'), 'p:w'],
    ['basic auth without a colon presents nothing', undefined, basic('nopassword'), undefined],
    ['a bearer credential is not basic auth', undefined, 'Bearer pw', undefined],
    ['nothing presented', undefined, undefined, undefined],
  ])('%s', (_rule, header, authorization, token) => {
    expect(presentedToken(header, authorization)).toBe(token);
  });
});

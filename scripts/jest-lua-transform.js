// Jest's side of importing a .lua file as its text (the bundle's side is webpack's asset/source rule).
module.exports = {
  process(source) {
    return { code: `module.exports = ${JSON.stringify(source)};` };
  },
};

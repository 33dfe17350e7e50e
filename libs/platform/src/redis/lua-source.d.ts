// A .lua file imported as its text: webpack's asset/source rule in the bundle, scripts/jest-lua-transform.js in jest.
declare module '*.lua' {
  const source: string;
  export default source;
}

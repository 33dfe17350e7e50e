// Every app's bundle: Nest's defaults, plus the Redis scripts (libs/platform/src/**/*.lua) inlined as text.
module.exports = (options) => ({
  ...options,
  module: {
    ...options.module,
    rules: [...(options.module?.rules ?? []), { test: /\.lua$/, type: 'asset/source' }],
  },
});

// The CLI is the package's bin: the bundle starts with a shebang and is
// executable, so `podwarden …` runs it directly once linked.
const { chmodSync } = require('node:fs');
const withRedisScripts = require('../../webpack.config.js');

module.exports = (options, webpack) => ({
  ...withRedisScripts(options),
  plugins: [
    ...options.plugins,
    new webpack.BannerPlugin({ banner: '#!/usr/bin/env node', raw: true, entryOnly: true }),
    {
      apply(compiler) {
        compiler.hooks.assetEmitted.tap('ExecutableBin', (_file, { targetPath }) => {
          if (targetPath.endsWith('main.js')) chmodSync(targetPath, 0o755);
        });
      },
    },
  ],
});

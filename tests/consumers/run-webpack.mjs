// Runs webpack 5 as `npx webpack` does in a folder with no configuration
// (entry ./src/index.js, output dist/main.js; `mode` said, which the CLI
// only warns about), from this repository's webpack. Prints its errors and
// warnings as JSON; exits 1 on an error.
import webpack from 'webpack';

webpack({ mode: 'production' }, (error, stats) => {
  if (error) {
    console.error(error);
    process.exit(1);
  }
  const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
  console.log(JSON.stringify({ errors: errors.map((e) => e.message), warnings: warnings.map((w) => w.message) }));
  process.exit(stats.hasErrors() ? 1 : 0);
});

import { main } from './portal-cli.ts';

// `npm run portal -- <command>`: the operator CLI, run by tsx like the region and SDK scripts.
process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});

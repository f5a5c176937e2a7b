#!/usr/bin/env node
// Entry point of the `deskbench` command. Runs the TypeScript sources with Node's type stripping (Node >= 22.12;
// before 23.6 the flag must be given, so the command re-runs itself with it).
import { spawnSync } from 'node:child_process';
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(`deskbench needs Node >= 22.12 (this is ${process.version}). Run \`npm run setup\` in the deskbench folder, which installs Node 24 into .tools/node.`);
  process.exit(2);
}
if (!process.features?.typescript) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', self, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
// Installed as a package, the sources sit under node_modules, where Node does not strip types by itself.
register('./strip-types-hooks.js', import.meta.url);
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));

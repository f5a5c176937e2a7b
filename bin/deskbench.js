#!/usr/bin/env node
// Entry point of the `deskbench` command. In the repository it runs the TypeScript sources with Node's type stripping
// (a Node that package.json's engines.node allows; where stripping still needs its flag, the command re-runs itself with
// it). Installed as a package, it runs the build in dist/: Node does not strip the types of files under node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NODE_ENGINES, satisfiesEngines } from '../scripts/node-version.js';

if (!satisfiesEngines(process.versions.node)) {
  console.error(`deskbench needs Node ${NODE_ENGINES} (this is ${process.version}). Run \`npm run setup\` in the deskbench folder, which installs Node 24 into .tools/node.`);
  process.exit(2);
}
const self = fileURLToPath(import.meta.url);
// Type stripping also serves the user's TypeScript modules that `check --extensions` imports.
if (!process.features?.typescript) {
  const run = spawnSync(process.execPath, ['--experimental-strip-types', '--no-warnings', self, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
let entry = new URL('../src/node/cli/main.ts', import.meta.url);
if (self.includes('/node_modules/')) {
  entry = new URL('../dist/node/cli/main.js', import.meta.url);
  if (!existsSync(entry)) {
    console.error(`deskbench: ${fileURLToPath(entry)} is missing: this copy of deskbench was installed without its build (npm run build in it).`);
    process.exit(2);
  }
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));

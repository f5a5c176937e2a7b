// Whether a Node version satisfies package.json's engines.node. Plain JavaScript with no dependencies: setup.sh asks
// it before anything is installed, and bin/deskbench.js before it loads anything else. It reads only the forms the
// field uses (`^x.y.z` and `>=x.y.z` joined by `||`) and throws on any other; test/toolchain.test.ts checks it against
// semver, and the field against the engines of every installed dependency.
//   node scripts/node-version.js    exit 0 when this Node satisfies the field; else 1, saying which versions do
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** package.json's engines.node, e.g. '^22.22.0 || ^24.0.0 || >=26.0.0'. */
export const NODE_ENGINES = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node;

/** Whether `version` ('24.11.0' or 'v24.11.0') is in `range` (default: engines.node). */
export function satisfiesEngines(version, range = NODE_ENGINES) {
  const have = parseVersion(version.replace(/^v/, ''));
  return range.split('||').some((alternative) => {
    const match = /^(\^|>=)\s*(\d+\.\d+\.\d+)$/.exec(alternative.trim());
    if (!match) throw new Error(`engines.node: "${alternative.trim()}" is not of the form ^x.y.z or >=x.y.z`);
    const low = parseVersion(match[2]);
    if (compare(have, low) < 0) return false;
    // ^x.y.z (x > 0) stops before the next major.
    return match[1] === '>=' || have[0] === low[0];
  });
}

function parseVersion(text) {
  const parts = text.split('-')[0].split('.').map(Number);
  if (parts.length !== 3 || parts.some((part) => !Number.isInteger(part))) throw new Error(`not a Node version: ${text}`);
  return parts;
}

function compare(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && !satisfiesEngines(process.versions.node)) {
  console.error(`node ${process.version} is not one deskbench's dependencies support (package.json engines.node: ${NODE_ENGINES})`);
  process.exit(1);
}

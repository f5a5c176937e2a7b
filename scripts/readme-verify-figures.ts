// Writes the README's verify figures from `deskbench verify --json` outputs (src/node/verify/figures.ts), so that they
// are never typed by hand.
//   node scripts/readme-verify-figures.ts [--write | --check] [verify.json …]   (npm run readme:verify-figures -- …)
// Without files: docs/verify/*.json, sorted. Prints the block; --write puts it into README.md between its markers;
// --check exits 1 when README.md says something else. Warns when an output's image is not the one this tree builds
// (scripts/build-image.sh --hash): its figures are then of another desktop, and the verifies need running again.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type VerifyOutput, currentFigures, figuresBlock, withFigures } from '../src/node/verify/figures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const README = join(ROOT, 'README.md');
const DEFAULT_DIR = join(ROOT, 'docs/verify');

const args = process.argv.slice(2);
const mode = args.find((arg) => arg === '--write' || arg === '--check');
const files = args.filter((arg) => !arg.startsWith('--'));
const inputs = files.length ? files.map((file) => resolve(file)) : readdirSync(DEFAULT_DIR).filter((name) => name.endsWith('.json')).sort().map((name) => join(DEFAULT_DIR, name));

const outputs = inputs.map((file) => {
  const data = JSON.parse(readFileSync(file, 'utf8')) as VerifyOutput;
  if (!Array.isArray(data.command) || typeof data.verified !== 'number') {
    throw new Error(`${file}: not the output of \`deskbench verify --json\` (expected command and verified)`);
  }
  return data;
});

const treeHash = execFileSync('bash', [join(ROOT, 'scripts/build-image.sh'), '--hash'], { encoding: 'utf8' }).trim();
for (const [i, out] of outputs.entries()) {
  const built = out.environment?.imageBuildHash;
  if (built !== treeHash) {
    console.error(`warning: ${inputs[i]} ran on image ${built ?? '(no build hash)'}; this tree builds ${treeHash}: run that verify again on the current image`);
  }
}

const block = figuresBlock(outputs);
const readme = readFileSync(README, 'utf8');
if (mode === '--write') {
  writeFileSync(README, withFigures(readme, block));
  console.log(`README.md: ${outputs.length} figure lines written`);
} else if (mode === '--check') {
  if (currentFigures(readme) !== block) {
    console.error('README.md: the verify figures differ from docs/verify/*.json: run npm run readme:verify-figures -- --write');
    process.exit(1);
  }
  console.log('README.md: the verify figures match');
} else {
  console.log(block);
}

// The README's verify figures come from `deskbench verify --json` outputs, never from a hand: the line says the
// command, date, commit and image (build hash and id), and the README still says what docs/verify/*.json say.
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type VerifyOutput, currentFigures, figureLine, figuresBlock, withFigures } from '../../src/node/verify/figures.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const output = (extra: Partial<VerifyOutput> = {}): VerifyOutput => ({
  command: ['deskbench', 'verify', '../shared/corpora/osworld', '--json', '--results', '/tmp/x', '--max-workers', '2'],
  tasks: 418,
  solved: 56,
  verified: 55,
  repeats: 1,
  freePasses: [],
  flaky: [],
  goldOnly: [],
  errors: [],
  failures: [{ id: 'a', agent: 'scripted', score: 0, state: 'success', evalError: null, error: null }],
  rows: [],
  environment: { date: '2026-11-27T10:04:31.000Z', commit: '318c0665f0a1b2c3d4e5f60718293a4b5c6d7e8f', dirty: false, image: 'deskbench/desktop:latest', imageId: 'sha256:f44e9aa3dc35ace41a39', imageBuildHash: '2a6f201bf2ba', treeBuildHash: '2a6f201bf2ba', cores: 2 },
  durationSeconds: 852,
  ...extra,
});

describe('figureLine', () => {
  test('the command (without the results folder), date, commit, image build hash and id, cores, then the counts', () => {
    expect(figureLine(output())).toBe(
      '- `deskbench verify ../shared/corpora/osworld --json --max-workers 2` (2026-11-27 10:04 UTC, commit 318c066, image `deskbench/desktop:2a6f201bf2ba`, id f44e9aa3dc35, 2 cores): ' +
        '418 tasks in the paths, 56 solved, **55 verified**, 1 failed runs, 0 free passes, 0 gold-only, 0 errors, in 14.2 min.',
    );
  });

  test('says so when the image is not the one its commit builds, or the checkout had changes; repeats add flaky', () => {
    const env = { ...output().environment!, dirty: true, treeBuildHash: '0123456789ab' };
    const line = figureLine(output({ environment: env, repeats: 3, flaky: ['a'] }));
    expect(line).toContain('commit 318c066 with uncommitted changes');
    expect(line).toContain('**not the image its commit builds (0123456789ab)**');
    expect(line).toContain('3 runs each, 1 flaky');
  });
});

describe('the README', () => {
  test('its verify figures are what docs/verify/*.json say (npm run readme:verify-figures -- --write)', () => {
    const dir = join(ROOT, 'docs/verify');
    const outputs = readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as VerifyOutput);
    expect(outputs.length).toBeGreaterThan(0);
    expect(currentFigures(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toBe(figuresBlock(outputs));
  });

  test('writing needs the markers', () => {
    expect(() => withFigures('no markers here', figuresBlock([]))).toThrow('the figures markers are missing');
    const text = `before\n${figuresBlock([])}\nafter`;
    expect(withFigures(text, figuresBlock([output()]))).toBe(`before\n${figuresBlock([output()])}\nafter`);
  });
});

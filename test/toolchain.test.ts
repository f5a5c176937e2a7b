// The Node versions deskbench supports: package.json's engines.node is exactly what the installed dependencies' own
// engines fields allow together (so npm never warns EBADENGINE, and no version is turned away that they all take), and
// the check setup.sh and bin/deskbench.js run before anything is installed agrees with it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, test } from 'vitest';
import { NODE_ENGINES, satisfiesEngines } from '../scripts/node-version.js';

const ROOT = resolve(import.meta.dirname, '..');

interface Installed {
  name: string;
  version: string;
  node: string;
}

/** Every package under node_modules (nested copies too) whose package.json has an engines.node range. */
function installedEngines(dir = join(ROOT, 'node_modules')): Installed[] {
  const found: Installed[] = [];
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const folders = entry.name.startsWith('@') ? readdirSync(join(dir, entry.name)).map((name) => join(dir, entry.name, name)) : [join(dir, entry.name)];
    for (const folder of folders) {
      const manifest = join(folder, 'package.json');
      if (!existsSync(manifest)) continue;
      const { name, version, engines } = JSON.parse(readFileSync(manifest, 'utf8'));
      if (typeof engines?.node === 'string') found.push({ name, version, node: engines.node });
      found.push(...installedEngines(join(folder, 'node_modules')));
    }
  }
  return found;
}

const installed = installedEngines();

/** The versions where any of the ranges can change its answer: each bound, the patch after it, and every major's .0.0. */
function boundaries(ranges: string[]): string[] {
  const versions = new Set<string>();
  for (let major = 10; major <= 30; major++) versions.add(`${major}.0.0`);
  for (const range of ranges) {
    for (const comparators of new semver.Range(range).set) {
      for (const { semver: bound, value } of comparators) {
        if (value === '') continue; // `*`: no bound
        versions.add(bound.version);
        versions.add(semver.inc(bound.version, 'patch')!);
        if (bound.patch > 0) versions.add(`${bound.major}.${bound.minor}.${bound.patch - 1}`);
        else if (bound.minor > 0) versions.add(`${bound.major}.${bound.minor - 1}.99`);
      }
    }
  }
  return [...versions];
}

describe('toolchain', () => {
  test('this Node is one engines.node allows', () => {
    expect(semver.satisfies(process.versions.node, NODE_ENGINES)).toBe(true);
  });

  test('engines.node allows no Node version an installed dependency refuses (npm would warn EBADENGINE)', () => {
    expect(installed.length).toBeGreaterThan(50);
    const refusing = installed.filter((dependency) => !semver.subset(NODE_ENGINES, dependency.node));
    expect(refusing.map(({ name, version, node }) => `${name}@${version} needs Node ${node}`)).toEqual([]);
  });

  test('engines.node turns away no Node version every installed dependency takes', () => {
    const ranges = [...new Set(installed.map((dependency) => dependency.node))];
    for (const version of boundaries([NODE_ENGINES, ...ranges])) {
      const takenByAll = ranges.every((range) => semver.satisfies(version, range));
      expect(semver.satisfies(version, NODE_ENGINES), `Node ${version}`).toBe(takenByAll);
    }
  });

  test("setup.sh's and the deskbench command's check (scripts/node-version.js) agrees with semver on engines.node", () => {
    for (const version of boundaries([NODE_ENGINES])) expect(satisfiesEngines(version), `Node ${version}`).toBe(semver.satisfies(version, NODE_ENGINES));
    expect(() => satisfiesEngines('24.0.0', '~24.1')).toThrow('"~24.1" is not of the form ^x.y.z or >=x.y.z');
    // Run as setup.sh runs it: this Node passes.
    expect(() => execFileSync(process.execPath, [join(ROOT, 'scripts/node-version.js')])).not.toThrow();
  });
});

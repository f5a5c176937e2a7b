// Where a verification's figures come from, recorded with them so that they cannot drift from what produced them:
// the date, deskbench's commit, the desktop image (the engine's id, and the build hash it is tagged with), and the build
// hash the checked-out tree gives (`scripts/build-image.sh --hash`): when the two hashes differ, the image is not the
// one this commit builds.
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { ImageName, getContainerRuntimeClient } from 'testcontainers';
import type { VerifyEnvironment } from '../../contract/verification.ts';

const BUILD_HASH = /^[0-9a-f]{12}$/;
/** Paths a verification never reads (git pathspecs). */
const NOT_RUN_BY_VERIFY = [':(exclude)*.md', ':(exclude)docs', ':(exclude)test', ':(exclude)benchmarks'];

/** Never throws: what cannot be found (no git, no Docker engine) is left out. */
export async function verifyEnvironment(packageRoot: string, image: string, now = new Date()): Promise<VerifyEnvironment> {
  const run = (command: string, args: string[]) => {
    try {
      return execFileSync(command, args, { cwd: packageRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      return undefined;
    }
  };
  const commit = run('git', ['rev-parse', 'HEAD']);
  // Uncommitted changes to what a verification runs: documentation, tests and benchmarks left out, so that a README
  // edited while a verify runs does not mark its figures.
  const status = commit === undefined ? undefined : run('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ...NOT_RUN_BY_VERIFY]);
  const treeBuildHash = run('bash', [join(packageRoot, 'scripts/build-image.sh'), '--hash']);
  const inspected = await inspectImage(image);
  return {
    date: now.toISOString(),
    ...(commit ? { commit } : {}),
    ...(status !== undefined ? { dirty: status !== '' } : {}),
    image,
    ...inspected,
    ...(treeBuildHash && BUILD_HASH.test(treeBuildHash) ? { treeBuildHash } : {}),
    cores: availableParallelism(),
  };
}

async function inspectImage(image: string): Promise<Pick<VerifyEnvironment, 'imageId' | 'imageBuildHash'>> {
  try {
    const runtime = await getContainerRuntimeClient();
    const info = await runtime.image.inspect(ImageName.fromString(image));
    const repository = image.replace(/:[^:/]*$/, '');
    const hashes = (info.RepoTags ?? []).filter((tag) => tag.startsWith(`${repository}:`)).map((tag) => tag.slice(repository.length + 1)).filter((tag) => BUILD_HASH.test(tag));
    return { imageId: info.Id, ...(hashes.length === 1 ? { imageBuildHash: hashes[0] } : {}) };
  } catch {
    return {};
  }
}

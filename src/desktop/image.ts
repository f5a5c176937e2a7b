// The desktop image's name and a clear error when it has not been built.
import { ImageName, getContainerRuntimeClient } from 'testcontainers';
import { DeskbenchError, type ErrorCode } from '../errors.ts';

/** `DESKBENCH_IMAGE` or deskbench/desktop:latest (built by `deskbench image`, i.e. scripts/build-image.sh). */
export function desktopImage(): string {
  return process.env.DESKBENCH_IMAGE ?? 'deskbench/desktop:latest';
}

class DockerEngineError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DOCKER_ENGINE';
}

export class DesktopImageMissingError extends DeskbenchError {
  override readonly code: ErrorCode = 'DESKBENCH_DESKTOP_IMAGE_MISSING';
}

/** Throws DesktopImageMissingError when the image is not in the local engine (it is never pulled). */
export async function assertDesktopImage(image = desktopImage()): Promise<void> {
  const client = await getContainerRuntimeClient().catch((error: unknown) => {
    const tried = process.env.DOCKER_HOST ? `DOCKER_HOST=${process.env.DOCKER_HOST}` : 'DOCKER_HOST unset, so the local socket /var/run/docker.sock';
    throw new DockerEngineError(
      `no Docker engine answers (${tried}): ${(error as Error).message}. Start one and point DOCKER_HOST at it, or run ` +
        '`npx deskbench image --docker` (as root on Debian: installs and starts docker.io, then builds the desktop image)',
    );
  });
  if (!(await client.image.exists(ImageName.fromString(image)))) {
    throw new DesktopImageMissingError(
      `the desktop image ${image} is missing: build it with \`npx deskbench image\` (it is never pulled)`,
    );
  }
}

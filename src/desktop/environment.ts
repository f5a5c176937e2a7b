// What a task ran on, so its numbers can be reproduced: the desktop image (name and the engine's image id, a sha256
// digest of its config) and the versions of the apps the tasks drive, asked of the desktop's control server.
import { ImageName, getContainerRuntimeClient } from 'testcontainers';
import type { DesktopClient } from './client.ts';
import { type DesktopSpec, desktopProviderOf } from './providers/index.ts';

export interface DesktopEnvironment {
  /** The image name the task's desktop ran, when its provider knows it (docker; its `image` hook). */
  image?: string;
  /** The engine's id of that image (`sha256:…`), unique to its content. */
  imageId?: string;
  /** The hash of the sources it was built from (its `deskbench.hash` label; `scripts/build-image.sh --hash`). */
  buildHash?: string;
  /** Debian package versions of the apps (and code-server's), by name. */
  versions: Record<string, string>;
}

/** The Debian packages whose versions decide how the apps behave. */
const PACKAGES = ['chromium', 'libreoffice-core', 'gimp', 'vlc', 'thunderbird', 'gedit', 'gnome-shell', 'python3'];
const VERSIONS_SCRIPT = [
  // dpkg-query skips what is not installed (a remote OSWorld VM has other apps): its exit code does not matter.
  `dpkg-query -W -f='\${Package}\\t\${Version}\\n' ${PACKAGES.join(' ')} 2>/dev/null`,
  `v=$(grep -m1 '"version"' /opt/code-server/lib/node_modules/code-server/package.json 2>/dev/null | sed 's/.*"version": *"\\([^"]*\\)".*/\\1/')`,
  `[ -n "$v" ] && printf 'code-server\\t%s\\n' "$v"`,
  'true',
].join('; ');

/** One image inspection per image name and worker: every task of a run uses the same few images. */
const imageIds = new Map<string, Promise<{ imageId?: string; buildHash?: string }>>();

/** Never throws: what cannot be found is left out (the task matters more than its description). */
export async function describeDesktop(spec: DesktopSpec, client: DesktopClient): Promise<DesktopEnvironment> {
  const [image, versions] = await Promise.all([imageOf(spec), appVersions(client)]);
  return { ...image, versions };
}

/** The image the provider says its desktops run (none: not known), with the engine's id of it. */
async function imageOf(spec: DesktopSpec): Promise<Omit<DesktopEnvironment, 'versions'>> {
  try {
    const image = await desktopProviderOf(spec).image?.(spec);
    return image ? { image, ...(await imageIdOf(image)) } : {};
  } catch {
    return {};
  }
}

/** The engine's id of an image and its build hash label; empty when the engine does not answer or lacks the image. */
export function imageIdOf(image: string): Promise<{ imageId?: string; buildHash?: string }> {
  let id = imageIds.get(image);
  if (!id) {
    id = getContainerRuntimeClient()
      .then((runtime) => runtime.image.inspect(ImageName.fromString(image)))
      .then((info) => {
        const buildHash = info.Config?.Labels?.['deskbench.hash'];
        return { imageId: info.Id, ...(buildHash ? { buildHash } : {}) };
      })
      .catch(() => ({}));
    imageIds.set(image, id);
  }
  return id;
}

async function appVersions(client: DesktopClient): Promise<Record<string, string>> {
  try {
    const result = await client.execute(['bash', '-c', VERSIONS_SCRIPT]);
    return parseVersions(result.output);
  } catch {
    return {};
  }
}

/** `name<TAB>version` lines; Debian's epoch (`1:`, `4:`) dropped, as apps print their versions. */
export function parseVersions(output: string): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const line of output.split('\n')) {
    const [name, version] = line.trim().split('\t');
    if (name && version) versions[name] = version.replace(/^\d+:/, '');
  }
  return versions;
}

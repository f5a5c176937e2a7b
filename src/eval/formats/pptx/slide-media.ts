// The slide-media getters of OSWorld (getters/slides.py: get_audio_in_slide, get_background_image_in_slide) as
// plain functions: a local .pptx in, the media file extracted next to `dest` out. The getter wrapper fetches the
// presentation from the desktop first, and fetches the file itself from the desktop when the media is linked.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hasPart, openPackage, readBinary, readRelationships, readXmlPart } from '../office/package.ts';
import { descendant, descendants } from '../office/xml.ts';
import { MalformedInputError } from '../../../errors.ts';

/** Where the media is: extracted from the package to `path`, or linked to a file outside it (a desktop path). */
export type SlideMedia = { kind: 'extracted'; path: string } | { kind: 'linked'; path: string };

/**
 * OSWorld looks at the part named ppt/slides/slide{index+1}.xml (file name order, not presentation order) and takes
 * the first relationship whose type contains "audio". A target inside the package (OSWorld: starting with "..") is
 * extracted; otherwise a `file://` prefix is dropped and the rest is the linked path.
 */
export async function audioInSlide(pptxPath: string, slideIndex: number, destPath: string): Promise<SlideMedia | null> {
  const pkg = await openPackage(pptxPath);
  const slidePart = `ppt/slides/slide${slideIndex + 1}.xml`;
  const rel = (await readRelationships(pkg, slidePart)).find((r) => r.type.includes('audio'));
  if (!rel) return null;
  return locate(pkg, rel.rawTarget, rel.target, destPath);
}

/**
 * The image of the slide's background: the first `a:blip/@r:embed` under a `p:bgPr` of
 * ppt/slides/slide{index+1}.xml, resolved through the first image relationship with that id.
 */
export async function backgroundImageInSlide(pptxPath: string, slideIndex: number, destPath: string): Promise<SlideMedia | null> {
  const pkg = await openPackage(pptxPath);
  const slidePart = `ppt/slides/slide${slideIndex + 1}.xml`;
  const slide = await readXmlPart(pkg, slidePart);
  if (!slide) return null;
  let imageId: string | undefined;
  for (const bgPr of descendants(slide, 'p:bgPr')) {
    imageId = descendant(bgPr, 'a:blip')?.attrs['r:embed'];
    if (imageId !== undefined) break;
  }
  if (imageId === undefined) return null;
  const rel = (await readRelationships(pkg, slidePart)).find((r) => r.type.includes('image') && r.id === imageId);
  if (!rel) return null;
  return locate(pkg, rel.rawTarget, rel.target, destPath);
}

async function locate(pkg: Awaited<ReturnType<typeof openPackage>>, rawTarget: string, partName: string, destPath: string): Promise<SlideMedia> {
  if (rawTarget.startsWith('..')) {
    if (!hasPart(pkg, partName)) throw new MalformedInputError(`${pkg.file}: media part ${partName} is missing`);
    await mkdir(dirname(destPath), { recursive: true });
    await writeFile(destPath, await readBinary(pkg, partName));
    return { kind: 'extracted', path: destPath };
  }
  return { kind: 'linked', path: rawTarget.startsWith('file://') ? rawTarget.slice(7) : rawTarget };
}

// Reading OOXML (docx/pptx) and ODF (odt) packages: zip entries, XML parts and OPC relationships.
import { readFile } from 'node:fs/promises';
import { posix } from 'node:path';
import JSZip from 'jszip';
import { children, parseXml } from './xml.ts';
import type { XmlElement } from './xml.ts';
import { MalformedInputError } from '../../../errors.ts';

export interface OfficePackage {
  /** The file it came from, for error messages. */
  file: string;
  zip: JSZip;
  /** Parsed XML parts, cached: metrics often read the same part several times. */
  xmlCache: Map<string, XmlElement | null>;
}

export interface Relationship {
  id: string;
  type: string;
  /** Part name inside the package (no leading slash), or the raw target when external. */
  target: string;
  external: boolean;
  /** The Target attribute as written. */
  rawTarget: string;
}

/** Opens a zip-based office file. Throws a clear error naming the file when it is missing or not a zip. */
export async function openPackage(file: string): Promise<OfficePackage> {
  if (typeof file !== 'string' || file === '') throw new MalformedInputError(`expected a file path, got ${JSON.stringify(file)}`);
  let data: Buffer;
  try {
    data = await readFile(file);
  } catch (error) {
    throw new MalformedInputError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch (error) {
    throw new MalformedInputError(`${file} is not a zip-based office document: ${(error as Error).message}`);
  }
  return { file, zip, xmlCache: new Map() };
}

export function hasPart(pkg: OfficePackage, name: string): boolean {
  return pkg.zip.file(name) !== null;
}

export async function readBinary(pkg: OfficePackage, name: string): Promise<Buffer> {
  const entry = pkg.zip.file(name);
  if (!entry) throw new MalformedInputError(`${pkg.file} has no part ${name}`);
  return entry.async('nodebuffer');
}

/** The parsed part, or null when the package has no such part. */
export async function readXmlPart(pkg: OfficePackage, name: string): Promise<XmlElement | null> {
  if (pkg.xmlCache.has(name)) return pkg.xmlCache.get(name)!;
  const entry = pkg.zip.file(name);
  const parsed = entry ? parseXml(await entry.async('string'), `${pkg.file}:${name}`) : null;
  pkg.xmlCache.set(name, parsed);
  return parsed;
}

export async function requireXmlPart(pkg: OfficePackage, name: string): Promise<XmlElement> {
  const part = await readXmlPart(pkg, name);
  if (!part) throw new MalformedInputError(`${pkg.file} has no part ${name}`);
  return part;
}

/** `word/document.xml` → `word/_rels/document.xml.rels`. */
function relsPartName(partName: string): string {
  return posix.join(posix.dirname(partName), '_rels', `${posix.basename(partName)}.rels`);
}

/** Relationships of a part in the order the .rels file lists them (python-docx/pptx keep that order). */
export async function readRelationships(pkg: OfficePackage, partName: string): Promise<Relationship[]> {
  const rels = await readXmlPart(pkg, relsPartName(partName));
  if (!rels) return [];
  return children(rels, 'rel:Relationship').map((rel) => {
    const rawTarget = rel.attrs.Target ?? '';
    const external = rel.attrs.TargetMode === 'External';
    return {
      id: rel.attrs.Id ?? '',
      type: rel.attrs.Type ?? '',
      rawTarget,
      external,
      target: external ? rawTarget : resolveTarget(partName, rawTarget),
    };
  });
}

/** Resolves a relationship target against its source part (`../media/image1.png` from `ppt/slides/slide1.xml`). */
function resolveTarget(sourcePart: string, target: string): string {
  const decoded = safeDecode(target);
  if (decoded.startsWith('/')) return posix.normalize(decoded.slice(1));
  return posix.normalize(posix.join(posix.dirname(sourcePart), decoded));
}

function safeDecode(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** The main part named by `_rels/.rels` for a relationship type ending (`/officeDocument`). */
export async function mainPartName(pkg: OfficePackage): Promise<string> {
  const rels = await readRelationships(pkg, '');
  const main = rels.find((rel) => rel.type.endsWith('/officeDocument'));
  if (!main) throw new MalformedInputError(`${pkg.file} has no officeDocument relationship in _rels/.rels (not an OOXML document?)`);
  return main.target;
}

// The other Impress metrics of OSWorld's slides.py: orientation, transitions, page-number colour, strike-through,
// picture stretching, background distance, and three that read LibreOffice's configuration or the a11y tree.
import { requireField, rulesOf, filePath } from '../arguments.ts';
import { openPackage, readXmlPart } from '../../formats/office/package.ts';
import { children, descendant, descendants, leadingText, parseXml } from '../../formats/office/xml.ts';
import { readXcu, xcuItems } from '../../formats/office/registry-xcu.ts';
import {
  backgroundFill,
  openPptx,
  paragraphRuns,
  pictureBlob,
  runFont,
  SHAPE_TYPE,
  shapeElements,
  shapeTree,
  shapeType,
  slideMaster,
  slideShapes,
  textParagraphs,
} from '../../formats/pptx/presentation.ts';
import { MalformedInputError } from '../../../errors.ts';

/** check_slide_orientation_Portrait(pptx): slide width < slide height. */
export async function checkSlideOrientationPortrait(result: unknown): Promise<number> {
  const file = filePath(result, 'check_slide_orientation_Portrait result');
  if (!file) throw new MalformedInputError('check_slide_orientation_Portrait: no presentation (python-pptx cannot open None)');
  const prs = await openPptx(file);
  if (prs.slideWidth === null || prs.slideHeight === null) throw new MalformedInputError(`${file}: presentation.xml has no p:sldSz`);
  return prs.slideWidth < prs.slideHeight ? 1 : 0;
}

/**
 * check_transition(pptx, {slide_idx, transition_type}): the part ppt/slides/slide{idx+1}.xml (by file name, not
 * presentation order) has a p:transition whose subtree holds a `p:<transition_type>` element.
 */
export async function checkTransition(result: unknown, expected: unknown): Promise<number> {
  const r = rulesOf(expected, 'check_transition');
  const slideIdx = requireField<number>(r, 'slide_idx', 'check_transition');
  const type = requireField<string>(r, 'transition_type', 'check_transition');
  const file = filePath(result, 'check_transition result');
  if (!file) throw new MalformedInputError('check_transition: no presentation');
  const pkg = await openPackage(file);
  const slide = await readXmlPart(pkg, `ppt/slides/slide${slideIdx + 1}.xml`);
  if (!slide) return 0;
  const transition = descendant(slide, 'p:transition');
  return transition && descendant(transition, `p:${type}`) ? 1 : 0;
}

function parseRgb(value: string | null | undefined): [number, number, number] | null {
  if (!value) return null;
  const hex = value.replace(/^#+/, '');
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) return null;
  return [parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16)];
}

/**
 * check_page_number_colors(pptx, {color: red|blue|green|black}), current upstream: the colour is looked up in
 * ppt/slideMasters/slideMaster1.xml — first an srgbClr inside a p:ph (never present, p:ph has no children), then the
 * last `a:rPr//a:solidFill//a:srgbClr` that is not 000000, then the last such `a:solidFill//a:srgbClr` anywhere, else
 * the very last one — and judged with a 50-point channel margin. An unknown colour name passes.
 */
export async function checkPageNumberColors(result: unknown, expected: unknown): Promise<number> {
  const color = requireField<string>(rulesOf(expected, 'check_page_number_colors'), 'color', 'check_page_number_colors');
  const file = filePath(result, 'check_page_number_colors result');
  if (!file) throw new MalformedInputError('check_page_number_colors: no presentation');
  const master = await readXmlPart(await openPackage(file), 'ppt/slideMasters/slideMaster1.xml');
  if (!master) throw new MalformedInputError(`${file} has no ppt/slideMasters/slideMaster1.xml`);
  const srgbUnderSolidFill = (root: (typeof master)[]) =>
    root.flatMap((r) => descendants(r, 'a:solidFill')).flatMap((fill) => descendants(fill, 'a:srgbClr'));
  const unique = <T,>(items: T[]) => [...new Set(items)];
  let value: string | null = null;
  const rPrColors = unique(srgbUnderSolidFill(descendants(master, 'a:rPr')));
  for (const el of [...rPrColors].reverse()) {
    if (el.attrs.val && el.attrs.val !== '000000') {
      value = el.attrs.val;
      break;
    }
  }
  if (value === null) {
    const all = unique(srgbUnderSolidFill([master]));
    for (const el of [...all].reverse()) {
      if (el.attrs.val && el.attrs.val !== '000000') {
        value = el.attrs.val;
        break;
      }
    }
    if (value === null && all.length) value = all[all.length - 1].attrs.val ?? null;
  }
  const rgb = parseRgb(value);
  if (!rgb) return 0;
  const [red, green, blue] = rgb;
  const t = 50;
  if (color === 'red' && !(red > green + t && red > blue + t)) return 0;
  if (color === 'blue' && !(blue > green + t && blue > red + t)) return 0;
  if (color === 'green' && !(green > red + t && green > blue + t)) return 0;
  if (color === 'black' && !(red < t && green < t && blue < t)) return 0;
  return 1;
}

/**
 * check_strikethrough(pptx, {slide_index_s, shape_index_s, paragraph_index_s}): for every combination, the first
 * run of that paragraph has a `strike` attribute (any value). Any error (missing slide, shape, run) gives 0.
 */
export async function checkStrikethrough(result: unknown, expected: unknown): Promise<number> {
  const r = rulesOf(expected, 'check_strikethrough');
  const slides = requireField<number[]>(r, 'slide_index_s', 'check_strikethrough');
  const shapes = requireField<number[]>(r, 'shape_index_s', 'check_strikethrough');
  const paragraphs = requireField<number[]>(r, 'paragraph_index_s', 'check_strikethrough');
  const file = filePath(result, 'check_strikethrough result');
  if (!file) throw new MalformedInputError('check_strikethrough: no presentation');
  const prs = await openPptx(file);
  try {
    for (const s of slides) {
      const slide = prs.slides.at(s);
      if (!slide) return 0;
      const elements = shapeElements(shapeTree(slide.xml));
      for (const sh of shapes) {
        const el = elements.at(sh);
        if (el?.name !== 'p:sp') return 0;
        const paras = textParagraphs(el);
        for (const pi of paragraphs) {
          const p = paras.at(pi);
          const run = p && paragraphRuns(p)[0];
          if (!run || !runFont(run).hasStrikeAttribute) return 0;
        }
      }
    }
  } catch {
    return 0;
  }
  return 1;
}

const HALF_INCH = 457200;

/**
 * check_image_stretch_and_center(modified, original): the first picture of the original's first slide must appear
 * (same image bytes; the last such picture wins) on the modified first slide, within half an inch of the original's
 * slide size and centred within half an inch.
 */
export async function checkImageStretchAndCenter(result: unknown, expected: unknown): Promise<number> {
  const modifiedFile = filePath(result, 'check_image_stretch_and_center result');
  const originalFile = filePath(expected, 'check_image_stretch_and_center expected');
  if (!modifiedFile || !originalFile) throw new MalformedInputError('check_image_stretch_and_center: a presentation is missing');
  const [original, modified] = [await openPptx(originalFile), await openPptx(modifiedFile)];
  const [s1, s2] = [original.slides[0], modified.slides[0]];
  if (!s1 || !s2) throw new MalformedInputError('check_image_stretch_and_center: a presentation has no slide (IndexError)');
  const pictures = async (prs: typeof original, slide: typeof s1) =>
    (await slideShapes(prs, slide)).filter((s) => shapeType(s.el, true) === SHAPE_TYPE.PICTURE);
  const originalPictures = await pictures(original, s1);
  if (!originalPictures.length) return 0;
  const blob = await pictureBlob(original, s1, originalPictures[0].el);
  let match: (typeof originalPictures)[number] | undefined;
  for (const pic of await pictures(modified, s2)) {
    const other = await pictureBlob(modified, s2, pic.el);
    if (blob && other && blob.equals(other)) match = pic;
  }
  if (!match) return 0;
  const { left, top, width, height } = match.geometry;
  const [W, H] = [original.slideWidth, original.slideHeight];
  if (left === null || top === null || width === null || height === null || W === null || H === null) {
    throw new MalformedInputError('check_image_stretch_and_center: a size or position is missing');
  }
  if (
    Math.abs(width - W) > HALF_INCH ||
    Math.abs(height - H) > HALF_INCH ||
    Math.abs(left - (W - width) / 2) > HALF_INCH ||
    Math.abs(top - (H - height) / 2) > HALF_INCH
  ) return 0;
  return 1;
}

/**
 * evaluate_presentation_fill_to_rgb_distance(pptx, {rgb, original_rgb?}): 1 − mean over slides of the background's
 * Euclidean RGB distance to `rgb` / (255·√3). A slide scores distance 1 when its fill is not solid (directly or,
 * when inherited, on the master), has no RGB value, or still equals `original_rgb`. Returns a float.
 */
export async function evaluatePresentationFillToRgbDistance(result: unknown, expected: unknown): Promise<number> {
  const r = rulesOf(expected, 'evaluate_presentation_fill_to_rgb_distance');
  const target = requireField<number[]>(r, 'rgb', 'evaluate_presentation_fill_to_rgb_distance');
  const original = (r.original_rgb as number[] | undefined) ?? null;
  const file = filePath(result, 'evaluate_presentation_fill_to_rgb_distance result');
  if (!file) throw new MalformedInputError('evaluate_presentation_fill_to_rgb_distance: no presentation');
  const prs = await openPptx(file);
  const distance = (hex: string | null): number => {
    const rgb = parseRgb(hex);
    if (!rgb) return 1;
    if (original && rgb.every((c, i) => c === original[i])) return 1;
    return Math.sqrt(rgb.reduce((sum, c, i) => sum + (c - target[i]) ** 2, 0)) / Math.sqrt(3 * 255 ** 2);
  };
  let total = 0;
  for (const slide of prs.slides) {
    const fill = backgroundFill(slide.xml);
    if (fill.type === 1) total += distance(fill.rgb);
    else if (fill.type === 5) {
      const master = await slideMaster(prs, slide);
      const masterFill = master ? backgroundFill(master.xml) : null;
      total += masterFill?.type === 1 ? distance(masterFill.rgb) : 1;
    } else total += 1;
  }
  if (!prs.slides.length) throw new MalformedInputError('evaluate_presentation_fill_to_rgb_distance: no slides (division by zero)');
  return 1 - total / prs.slides.length;
}

/** check_left_panel(accessibility_tree): the tree has a document-frame named "Slides View" (the slide pane is open). */
export function checkLeftPanel(result: unknown): number {
  if (typeof result !== 'string') throw new MalformedInputError('check_left_panel: expected the accessibility tree XML as a string');
  const root = parseXml(result, 'accessibility tree');
  const frames = root.name === 'document-frame' ? [root, ...descendants(root, 'document-frame')] : descendants(root, 'document-frame');
  return frames.some((frame) => frame.attrs.name === 'Slides View') ? 1 : 0;
}

/**
 * check_presenter_console_disable(xcu): the first `prop oor:name="EnablePresenterScreen"` of the item
 * /org.openoffice.Office.Impress/Misc/Start has the value "false" (any case). Errors give 0.
 */
export async function checkPresenterConsoleDisable(result: unknown): Promise<number> {
  const file = filePath(result, 'check_presenter_console_disable result');
  try {
    const root = await readXcu(file ?? '');
    for (const item of xcuItems(root, '/org.openoffice.Office.Impress/Misc/Start')) {
      for (const prop of children(item, 'prop')) {
        if (prop.attrs['oor:name'] !== 'EnablePresenterScreen') continue;
        const value = children(prop, 'value')[0];
        return leadingText(value!)!.toLowerCase() === 'false' ? 1 : 0;
      }
    }
    return 0;
  } catch {
    return 0;
  }
}

/**
 * check_auto_saving_time(xcu, {minutes}): the AutoSaveTimeIntervall value under /org.openoffice.Office.Common/Save/
 * Document (the last such item wins) equals `minutes`. Unreadable files and non-integer values give 0.
 */
export async function checkAutoSavingTime(result: unknown, expected: unknown): Promise<number> {
  const minutes = requireField<number>(rulesOf(expected, 'check_auto_saving_time'), 'minutes', 'check_auto_saving_time');
  const file = filePath(result, 'check_auto_saving_time result');
  try {
    const root = await readXcu(file ?? '');
    let value: string | null = null;
    for (const item of xcuItems(root, '/org.openoffice.Office.Common/Save/Document')) {
      const prop = descendants(item, 'prop').find((p) => p.attrs['oor:name'] === 'AutoSaveTimeIntervall');
      if (prop) value = leadingText(descendant(prop, 'value')!);
    }
    if (value === null) return 0;
    const trimmed = value.trim();
    if (!/^[+-]?\d+$/.test(trimmed)) return 0;
    return Number(trimmed) === minutes ? 1 : 0;
  } catch {
    return 0;
  }
}

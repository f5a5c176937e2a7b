// Image metrics on real PNG fixtures (scripts/fixtures/images.ts). Float results are checked against values derived
// independently in python3 stdlib from skimage's/Pillow's definitions (scripts/fixtures/images-expected.py →
// fixtures/images/expected.json). Resizing follows Pillow's own Resample.c (LANCZOS where OSWorld says LANCZOS,
// Pillow's BICUBIC default elsewhere), not sharp's kernels, so resized pixels match Pillow exactly.
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, luma, toHsvBands } from '../../../src/eval/formats/image/convert.ts';
import { openImage } from '../../../src/eval/formats/image/pil-image.ts';
import { resize } from '../../../src/eval/formats/image/resize.ts';
import { structuralSimilarity } from '../../../src/eval/formats/image/ssim.ts';
import { imageMetrics } from '../../../src/eval/metrics/image.ts';
import { metrics } from '../../../src/eval/registry.ts';
import { registerBuiltins } from '../../../src/eval/builtins.ts';

const dir = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'images');
const img = (name: string) => join(dir, name);
const expected = JSON.parse(readFileSync(img('expected.json'), 'utf8'));
const m = imageMetrics;

describe('SSIM (skimage structural_similarity defaults)', () => {
  it('is 1 for an image with itself', () => {
    const { a, width, height } = expected.grey_pair;
    expect(structuralSimilarity(Uint8Array.from(a), Uint8Array.from(a), width, height, 1)).toBe(1);
  });

  it('matches the python reference for grey and RGB pairs', () => {
    for (const name of ['grey_pair', 'grey_unrelated', 'rgb_pair']) {
      const c = expected[name];
      const ssim = structuralSimilarity(Uint8Array.from(c.a), Uint8Array.from(c.b), c.width, c.height, c.channels);
      expect(ssim, name).toBeCloseTo(c.ssim, 12);
    }
  });

  it('refuses images smaller than the 7x7 window, as skimage does', () => {
    expect(() => structuralSimilarity(new Uint8Array(36), new Uint8Array(36), 6, 6, 1)).toThrow(/win_size/);
  });
});

describe('Pillow pixel maths', () => {
  it("convert('L') uses Pillow's fixed-point luma", async () => {
    expect(luma(255, 255, 255)).toBe(255);
    expect(luma(255, 0, 0)).toBe(76); // 0.299·255 = 76.2
    const grey = convert(await openImage(img('rgb-a.png')), 'L');
    expect(Array.from(grey.data)).toEqual(expected.rgb_pair.grey_a);
  });

  it('LANCZOS resize matches the python reimplementation of Resample.c', async () => {
    const big = await openImage(img('resize-big.png'));
    expect(big.mode).toBe('L');
    expect(Array.from(resize(big, 10, 9, 'lanczos').data)).toEqual(expected.resize_pair.big_resized);
  });

  it('premultiplies RGBA around a resize, as Pillow does (hand-computed)', () => {
    // Opaque red next to transparent blue, 2x1 → 1x1 BICUBIC: both taps weigh 0.5 (bicubic(0.25) each, normalised).
    // Premultiplied: (255,0,0,255) and (0,0,0,0) → (128,0,0,128) → unpremultiplied 255·128/128 = 255: no blue bleeds in.
    const image = { width: 2, height: 1, mode: 'RGBA' as const, data: Uint8Array.from([255, 0, 0, 255, 0, 0, 255, 0]) };
    expect(Array.from(resize(image, 1, 1, 'bicubic').data)).toEqual([255, 0, 0, 128]);
    const rgb = { width: 2, height: 1, mode: 'RGB' as const, data: Uint8Array.from([255, 0, 0, 0, 0, 255]) };
    expect(Array.from(resize(rgb, 1, 1, 'bicubic').data)).toEqual([128, 0, 128]);
  });

  it('reads modes as Pillow does: L, RGB, P, RGBA', async () => {
    expect((await openImage(img('grey-a.png'))).mode).toBe('L');
    expect((await openImage(img('scene.png'))).mode).toBe('RGB');
    expect((await openImage(img('scene-palette.png'))).mode).toBe('P');
    expect((await openImage(img('scene-on-transparent.png'))).mode).toBe('RGBA');
  });

  it("HSV follows Pillow's rgb2hsv (pure red → hue 0, saturation 255)", async () => {
    const { h, s, v } = toHsvBands({ width: 2, height: 1, mode: 'RGB', data: Uint8Array.from([255, 0, 0, 0, 0, 255]) });
    expect([h.data[0], s.data[0], v.data[0]]).toEqual([0, 255, 255]);
    // blue: h = 4 + gc − rc = 4 + 1 − 1 = 4 → fmod(4/6 + 1, 1) = 2/3 → int(2/3·255) = 170
    expect([h.data[1], s.data[1], v.data[1]]).toEqual([170, 255, 255]);
  });
});

describe('compare_images', () => {
  it('returns the raw SSIM of the greys (a float)', async () => {
    expect(await m.compare_images(img('grey-a.png'), img('grey-b.png'), {})).toBeCloseTo(expected.grey_pair.ssim, 12);
    expect(await m.compare_images(img('rgb-a.png'), img('rgb-b.png'), {})).toBeCloseTo(expected.rgb_pair.grey_ssim, 12);
    expect(await m.compare_images(img('grey-a.png'), img('grey-a.png'), {})).toBe(1);
  });

  it('resizes both to the smaller size with LANCZOS first', async () => {
    expect(await m.compare_images(img('resize-big.png'), img('resize-small.png'), {})).toBeCloseTo(expected.resize_pair.ssim, 12);
  });

  it('rescales by reference_base_result, and gives 0 below base + 0.01', async () => {
    const { reference_base_result, score } = expected.grey_pair.with_base;
    expect(await m.compare_images(img('grey-a.png'), img('grey-b.png'), { reference_base_result })).toBeCloseTo(score, 12);
    expect(await m.compare_images(img('grey-a.png'), img('grey-unrelated.png'), { reference_base_result: 0.5 })).toBe(0);
  });

  it('scores missing files 0', async () => {
    expect(await m.compare_images(null, img('grey-a.png'), {})).toBe(0);
    expect(await m.compare_images(img('nope.png'), img('grey-a.png'), {})).toBe(0);
  });
});

describe('structure similarity checks', () => {
  it('check_structure_sim: same size and SSIM ≥ 0.9', async () => {
    expect(await m.check_structure_sim(img('scene.png'), img('scene-copy.png'), {})).toBe(1);
    expect(await m.check_structure_sim(img('scene.png'), img('scene-dark-shuffled.png'), {})).toBe(0);
    expect(await m.check_structure_sim(img('scene-half.png'), img('scene.png'), {})).toBe(0); // size differs
  });

  it('check_structure_sim_resized: crops the alpha bbox, resizes, SSIM ≥ 0.9', async () => {
    expect(await m.check_structure_sim_resized(img('scene-on-transparent.png'), img('scene.png'), {})).toBe(1);
    expect(await m.check_structure_sim_resized(img('scene-dark-shuffled.png'), img('scene.png'), {})).toBe(0);
  });

  it('check_structure_sim_with_threshold: LANCZOS to the target size, SSIM ≥ ssim_threshold', async () => {
    expect(await m.check_structure_sim_with_threshold(img('scene-copy.png'), img('scene.png'), { ssim_threshold: 0.85 })).toBe(1);
    expect(await m.check_structure_sim_with_threshold(img('scene-dark-shuffled.png'), img('scene.png'), {})).toBe(0);
  });

  it('check_file_exists_and_structure_sim', async () => {
    expect(await m.check_file_exists_and_structure_sim(img('scene-copy.png'), img('scene.png'), {})).toBe(1);
    expect(await m.check_file_exists_and_structure_sim(img('missing.png'), img('scene.png'), {})).toBe(0);
    expect(await m.check_file_exists_and_structure_sim(img('scene-dark-shuffled.png'), img('scene.png'), {})).toBe(0);
  });
});

describe('compare_image_list', () => {
  it('requires pixel identity, pairwise over lists', async () => {
    expect(await m.compare_image_list(img('scene-copy.png'), img('scene.png'), {})).toBe(1);
    expect(await m.compare_image_list([img('scene-copy.png'), img('grey-a.png')], [img('scene.png'), img('grey-a.png')], {})).toBe(1);
    expect(await m.compare_image_list([img('scene-copy.png'), img('scene-one-pixel-changed.png')], [img('scene.png'), img('scene.png')], {})).toBe(0);
    expect(await m.compare_image_list([null], [img('scene.png')], {})).toBe(0);
  });
});

describe('size, file size and GIMP config', () => {
  it('check_image_size: exact dimensions, alpha bbox with ignore_transparent', async () => {
    expect(await m.check_image_size(img('scene.png'), { width: 64, height: 48 }, {})).toBe(1);
    expect(await m.check_image_size(img('scene.png'), { height: 50 }, {})).toBe(0);
    expect(await m.check_image_size(img('scene-on-transparent.png'), { width: 64, height: 48, ignore_transparent: true }, {})).toBe(1);
    expect(await m.check_image_size(img('scene-on-transparent.png'), { width: 64, height: 48 }, {})).toBe(0); // 80x60 without the flag
  });

  it('check_image_file_size: bytes < max_size', async () => {
    expect(await m.check_image_file_size(img('scene.png'), { max_size: 600000 }, {})).toBe(1);
    expect(await m.check_image_file_size(img('scene.png'), { max_size: 1000 }, {})).toBe(0);
  });

  it('check_config_status: key and value on one gimprc line', async () => {
    expect(await m.check_config_status(img('gimprc'), { 'type:': 'key-value', key: 'undo-levels', value: '100' }, {})).toBe(1);
    expect(await m.check_config_status(img('gimprc'), { key: 'layer-new-name', value: '"Square"' }, {})).toBe(1);
    expect(await m.check_config_status(img('gimprc'), { key: 'undo-levels', value: '5' }, {})).toBe(0);
    expect(await m.check_config_status(img('gimprc'), { key: ['default-image', 'x'], value: '640' }, {})).toBe(0);
  });
});

describe('GIMP edit checks', () => {
  it('check_brightness_decrease_and_structure_sim', async () => {
    expect(await m.check_brightness_decrease_and_structure_sim(img('scene-dark.png'), img('scene.png'), {})).toBe(1);
    expect(await m.check_brightness_decrease_and_structure_sim(img('scene.png'), img('scene-dark.png'), {})).toBe(0); // brighter
    expect(await m.check_brightness_decrease_and_structure_sim(img('scene-dark-shuffled.png'), img('scene.png'), {})).toBe(0);
  });

  it('check_saturation_increase_and_structure_sim', async () => {
    expect(await m.check_saturation_increase_and_structure_sim(img('scene-saturated.png'), img('scene.png'), {})).toBe(1);
    expect(await m.check_saturation_increase_and_structure_sim(img('scene.png'), img('scene-saturated.png'), {})).toBe(0);
  });

  it('check_contrast_increase_and_structure_sim', async () => {
    expect(await m.check_contrast_increase_and_structure_sim(img('scene-contrast.png'), img('scene.png'), {})).toBe(1);
    expect(await m.check_contrast_increase_and_structure_sim(img('scene.png'), img('scene-contrast.png'), {})).toBe(0);
  });

  it('check_image_mirror', async () => {
    expect(await m.check_image_mirror(img('scene.png'), img('scene-mirror.png'), {})).toBe(1);
    expect(await m.check_image_mirror(img('scene.png'), img('scene-copy.png'), {})).toBe(0);
  });

  it('check_green_background (square images; non-square ones fail like OSWorld’s swapped indexing)', async () => {
    expect(await m.check_green_background(img('green-src.png'), img('green-mask.png'), {})).toBe(1);
    expect(await m.check_green_background(img('blue-src.png'), img('green-mask.png'), {})).toBe(0);
    await expect(m.check_green_background(img('green-src.png'), img('green-mask-wide.png'), {})).rejects.toThrow(/out of bounds/);
  });

  it('check_palette_and_structure_sim', async () => {
    expect(await m.check_palette_and_structure_sim(img('scene-palette.png'), img('scene.png'), {})).toBe(1);
    expect(await m.check_palette_and_structure_sim(img('scene-copy.png'), img('scene.png'), {})).toBe(0); // RGB, not P
  });

  it('check_triangle_position', async () => {
    expect(await m.check_triangle_position(img('triangle-centred.png'), undefined, {})).toBe(1);
    expect(await m.check_triangle_position(img('triangle-corner.png'), undefined, {})).toBe(0);
  });

  it('check_textbox_on_leftside', async () => {
    expect(await m.check_textbox_on_leftside(img('textbox-left.png'), undefined, {})).toBe(1);
    expect(await m.check_textbox_on_leftside(img('textbox-middle.png'), undefined, {})).toBe(0);
  });
});

describe('registration', () => {
  it('registers every image metric under its OSWorld name', () => {
    registerBuiltins();
    for (const name of Object.keys(imageMetrics)) expect(metrics.get(name), name).toBe(imageMetrics[name]);
    expect(Object.keys(imageMetrics)).toHaveLength(17);
  });

  it('works on a file copied to another folder (paths are plain local paths)', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'deskbench-img-'));
    await copyFile(img('scene.png'), join(tmp, 'out.png'));
    expect(await m.check_structure_sim(join(tmp, 'out.png'), img('scene.png'), {})).toBe(1);
  });
});

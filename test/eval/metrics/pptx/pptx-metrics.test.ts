// Impress metrics on presentations written by real LibreOffice 7.4 (scripts/fixtures/pptx-fixtures.py): each
// variant differs from base.pptx in exactly one property.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { registerBuiltins } from '../../../../src/eval/builtins.ts';
import { comparePptxFilesDetailed } from '../../../../src/eval/metrics/pptx/compare.ts';
import { pptxMetrics as m } from '../../../../src/eval/metrics/pptx/index.ts';
import { audioInSlide, backgroundImageInSlide } from '../../../../src/eval/formats/pptx/slide-media.ts';
import { metrics } from '../../../../src/eval/registry.ts';

const dir = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures', 'pptx');
const f = (name: string) => join(dir, `${name}.pptx`);
const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
const compare = (variant: string, options = {}) => m.compare_pptx_files(f(variant), f('base'), options);
const detail = async (variant: string, options = {}) => (await comparePptxFilesDetailed(f(variant), f('base'), options)).difference;

describe('compare_pptx_files', () => {
  it('passes a presentation against itself', async () => {
    expect(await compare('base')).toBe(1);
  });

  it.each([
    ['font-size', 'examine_font_size', 'font size', 2800, 3200],
    ['font-color', 'examine_color_rgb', 'font colour', 'C00000', '1F3864'],
    ['align', 'examine_alignment', 'alignment', 'r', 'ctr'],
    ['notes', 'examine_note', 'notes', 'Speaker note two', 'Speaker note one'],
    ['background', 'examine_background_color', 'background colour', 'FFE0E0', 'DDE8FF'],
    ['strike', 'examine_strike_through', 'strike-through', 'sngStrike', 'noStrike'],
    ['slide-count', 'examine_number_of_slides', 'number of slides', 4, 3],
  ])('%s fails on %s and passes when that switch is off', async (variant, option, property, received, wanted) => {
    expect(await compare(variant)).toBe(0);
    expect(await detail(variant)).toMatchObject({ property, received, expected: wanted });
    expect(await compare(variant, { [option]: false })).toBe(1);
  });

  it('checks position and size with a relative tolerance (approximately_tolerance)', async () => {
    expect(await detail('position')).toMatchObject({ slide: 1, shape: 3, property: 'position and size' });
    expect(await compare('position', { examine_shape: false })).toBe(1);
    // 3cm → 3.01cm is a 0.33% shift: within the default 0.5%, outside 0.1%
    expect(await compare('position-slight')).toBe(1);
    expect(await compare('position-slight', { approximately_tolerance: 0.001 })).toBe(0);
    // the lenient-height reading still checks left/top/width
    expect(await compare('position', { examine_shape_lenient_height: true })).toBe(0);
  });

  it('optional position checks (examine_image_size, examine_modify_height) compare boxes', async () => {
    expect(await compare('position', { examine_shape: false, examine_image_size: true })).toBe(0);
    expect(await compare('position', { examine_shape: false, examine_modify_height: true })).toBe(0);
    expect(await compare('base', { examine_image_size: true, examine_modify_height: true, examine_shape_for_shift_size: true })).toBe(1);
  });

  it('compares the whole slide\'s bullets at the first run, before the text of later shapes', async () => {
    // the body text changed in shape 2, but OSWorld's bullet list (every paragraph of the slide) is checked at
    // shape 1's first run and differs first
    expect(await detail('text')).toMatchObject({ slide: 1, shape: 1, property: 'bullets' });
    expect(await detail('text', { examine_bullets: false })).toMatchObject({ shape: 2, property: 'text', received: 'Revenue grew\nCosts rose' });
    expect(await compare('text', { examine_bullets: false, examine_text: false })).toBe(1);
  });

  it('compares bullet characters', async () => {
    expect(await detail('bullet')).toMatchObject({ slide: 3, property: 'bullets' });
    expect(await compare('bullet', { examine_bullets: false })).toBe(1);
  });

  it('compares table run formatting but not table cell text (as OSWorld)', async () => {
    expect(await detail('table-bold')).toMatchObject({ slide: 2, shape: 1, property: 'cell (1, 1) bold', received: true, expected: false });
    expect(await compare('table-text')).toBe(1);
  });

  it('checks text inside groups through the text-shape pass (only with examine_alignment)', async () => {
    expect(await detail('group-text')).toMatchObject({ slide: 2, property: 'text (text shapes incl. groups)', received: 'Grouped C' });
    expect(await compare('group-text', { examine_alignment: false })).toBe(1);
  });

  it('names a missing file', async () => {
    await expect(m.compare_pptx_files(join(dir, 'missing.pptx'), f('base'), {})).rejects.toThrow(/missing\.pptx/);
  });
});

describe('slide metrics', () => {
  it('check_slide_orientation_Portrait', async () => {
    expect(await m.check_slide_orientation_Portrait(f('portrait'), undefined, {})).toBe(1);
    expect(await m.check_slide_orientation_Portrait(f('base'), undefined, {})).toBe(0);
  });

  it('check_transition looks for p:<type> under p:transition of slide{idx+1}.xml', async () => {
    const rules = { slide_idx: 0, transition_type: 'dissolve' };
    expect(await m.check_transition(f('dissolve'), rules, {})).toBe(1);
    expect(await m.check_transition(f('base'), rules, {})).toBe(0);
    expect(await m.check_transition(f('dissolve'), { slide_idx: 7, transition_type: 'dissolve' }, {})).toBe(0);
  });

  it('check_page_number_colors judges the master\'s last non-black run colour', async () => {
    expect(await m.check_page_number_colors(f('page-number-red'), { color: 'red' }, {})).toBe(1);
    expect(await m.check_page_number_colors(f('page-number-blue'), { color: 'red' }, {})).toBe(0);
    expect(await m.check_page_number_colors(f('page-number-blue'), { color: 'blue' }, {})).toBe(1);
    expect(await m.check_page_number_colors(f('base'), { color: 'red' }, {})).toBe(0);
  });

  it('check_strikethrough needs a strike attribute on the first run of each named paragraph', async () => {
    const rules = { slide_index_s: [0], shape_index_s: [1], paragraph_index_s: [0, 1] };
    expect(await m.check_strikethrough(f('strike'), rules, {})).toBe(1);
    // LibreOffice writes strike="noStrike" on every run: OSWorld only tests the attribute's presence
    expect(await m.check_strikethrough(f('base'), rules, {})).toBe(1);
    expect(await m.check_strikethrough(f('strike'), { ...rules, paragraph_index_s: [5] }, {})).toBe(0);
    expect(await m.check_strikethrough(f('strike'), { ...rules, shape_index_s: [9] }, {})).toBe(0);
  });

  it('check_image_stretch_and_center', async () => {
    expect(await m.check_image_stretch_and_center(f('picture-stretched'), f('picture-small'), {})).toBe(1);
    expect(await m.check_image_stretch_and_center(f('picture-small'), f('picture-small'), {})).toBe(0);
    expect(await m.check_image_stretch_and_center(f('picture-stretched'), f('base'), {})).toBe(0);
  });

  it('evaluate_presentation_fill_to_rgb_distance returns 1 − mean normalised distance', async () => {
    const rules = { rgb: [0, 0, 255], original_rgb: [255, 255, 255] };
    expect(await m.evaluate_presentation_fill_to_rgb_distance(f('blue-background'), rules, {})).toBe(expected.fillDistanceBlueToBlue);
    expect(await m.evaluate_presentation_fill_to_rgb_distance(f('base'), rules, {})).toBeCloseTo(expected.fillDistanceBaseToBlue, 12);
    // a slide still in the original colour counts as distance 1
    expect(await m.evaluate_presentation_fill_to_rgb_distance(f('blue-background'), { rgb: [0, 0, 255], original_rgb: [0, 0, 255] }, {})).toBe(0);
  });

  it('check_left_panel looks for the "Slides View" document frame', () => {
    expect(m.check_left_panel('<desktop-frame><document-frame name="Slides View"/></desktop-frame>', undefined, {})).toBe(1);
    expect(m.check_left_panel('<desktop-frame><document-frame name="Outline"/></desktop-frame>', undefined, {})).toBe(0);
  });
});

describe('LibreOffice configuration checks', () => {
  const xcu = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">${body}</oor:items>`;
  const write = async (name: string, body: string) => {
    const path = join(await mkdtemp(join(tmpdir(), 'xcu-')), name);
    await writeFile(path, xcu(body));
    return path;
  };

  it('check_presenter_console_disable', async () => {
    const item = (v: string) => `<item oor:path="/org.openoffice.Office.Impress/Misc/Start"><prop oor:name="EnablePresenterScreen" oor:op="fuse"><value>${v}</value></prop></item>`;
    expect(await m.check_presenter_console_disable(await write('a.xcu', item('false')), undefined, {})).toBe(1);
    expect(await m.check_presenter_console_disable(await write('b.xcu', item('true')), undefined, {})).toBe(0);
    expect(await m.check_presenter_console_disable(await write('c.xcu', ''), undefined, {})).toBe(0);
  });

  it('check_auto_saving_time', async () => {
    const item = (v: string) => `<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="AutoSaveTimeIntervall" oor:op="fuse"><value>${v}</value></prop></item>`;
    expect(await m.check_auto_saving_time(await write('a.xcu', item('3')), { minutes: 3 }, {})).toBe(1);
    expect(await m.check_auto_saving_time(await write('b.xcu', item('10')), { minutes: 3 }, {})).toBe(0);
    expect(await m.check_auto_saving_time(await write('c.xcu', item('x')), { minutes: 3 }, {})).toBe(0);
  });
});

describe('slide-media getters (as functions)', () => {
  it('extracts the background image of a slide', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'bg-')), 'bg.png');
    expect(await backgroundImageInSlide(f('background-image'), 0, out)).toEqual({ kind: 'extracted', path: out });
    const meta = await sharp(await readFile(out)).metadata();
    expect([meta.width, meta.height]).toEqual([8, 4]);
    expect(await backgroundImageInSlide(f('base'), 0, out)).toBeNull();
  });

  it('reports linked audio by its path (LibreOffice links media it exports)', async () => {
    const found = await audioInSlide(f('audio'), 0, '/tmp/unused.wav');
    expect(found?.kind).toBe('linked');
    expect(found?.path).toMatch(/fixtures\/pptx\/src\/beep\.wav$/);
    expect(await audioInSlide(f('base'), 0, '/tmp/unused.wav')).toBeNull();
  });
});

describe('registration', () => {
  it('registers every pptx metric under its OSWorld name', () => {
    registerBuiltins();
    for (const name of Object.keys(m)) expect(metrics.get(name), name).toBeDefined();
    expect(Object.keys(m)).toHaveLength(10);
  });
});

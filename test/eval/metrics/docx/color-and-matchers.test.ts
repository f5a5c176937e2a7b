// CIEDE2000 against Sharma, Wu & Dalal's published test data (independent of skimage and of this code), and the
// docx/pptx matchers' failure messages.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deltaE2000, rgbToLab } from '../../../../src/eval/formats/office/color.ts';
import { matchDocx } from '../../../../src/matchers/docx.ts';
import { matchPptx } from '../../../../src/matchers/pptx.ts';
import '../../../../src/matchers/index.ts';

const fixtures = join(import.meta.dirname, '..', '..', '..', '..', 'fixtures');
const docx = (name: string) => join(fixtures, 'docx', name);
const pptx = (name: string) => join(fixtures, 'pptx', `${name}.pptx`);

describe('CIEDE2000', () => {
  // Sharma et al. (2005), "The CIEDE2000 color-difference formula", Table 1, pairs 1, 7, 13, 17, 25, 34
  it.each([
    [[50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425],
    [[50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669],
    [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0011], 7.2195],
    [[50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492],
    [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
    [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
  ] as const)('%j vs %j = %f', (a, b, want) => {
    expect(deltaE2000(a, b)).toBeCloseTo(want, 4);
  });

  it('converts sRGB to Lab with the D65 white (pure red ≈ L 53.24, a 80.09, b 67.20)', () => {
    const [L, a, b] = rgbToLab([1, 0, 0]);
    expect(L).toBeCloseTo(53.24, 1);
    expect(a).toBeCloseTo(80.09, 1);
    expect(b).toBeCloseTo(67.2, 1);
  });
});

describe('toMatchDocx', () => {
  it('names the first differing paragraph with both texts', async () => {
    const verdict = await matchDocx(docx('text-changed.docx'), docx('text-base.docx'), { ignore_blanks: false });
    expect(verdict.pass).toBe(false);
    expect(verdict.message).toContain('paragraph 2:');
    expect(verdict.message).toContain('received: "The quick brown fox jumps over the sleepy dog."');
    expect(verdict.message).toContain('expected: "The quick brown fox jumps over the lazy dog."');
  });

  it('reports a paragraph in the default whitespace-insensitive mode too, and passes equal documents', async () => {
    const verdict = await matchDocx(docx('text-changed.docx'), docx('text-base.docx'));
    expect(verdict.message).toMatch(/paragraph 2:/);
    expect((await matchDocx(docx('text-blanks.docx'), docx('text-base.docx'))).pass).toBe(true);
  });

  it('applies a threshold to the float modes', async () => {
    const verdict = await matchDocx(docx('text-changed.docx'), docx('text-base.docx'), { content_only: true, threshold: 0.95 });
    expect(verdict.pass).toBe(true);
    expect((await matchDocx(docx('text-changed.docx'), docx('text-base.docx'), { content_only: true })).pass).toBe(false);
  });

  it('works as an expect matcher', async () => {
    await expect(docx('text-base.docx')).toMatchDocx(docx('text-blanks.docx'));
    await expect(expect(docx('text-changed.docx')).toMatchDocx(docx('text-base.docx'))).rejects.toThrow(/paragraph 2/);
  });
});

describe('toMatchPptx', () => {
  it('names slide, shape, paragraph, run and property with both values', async () => {
    const verdict = await matchPptx(pptx('font-size'), pptx('base'));
    expect(verdict.pass).toBe(false);
    expect(verdict.message).toContain('slide 1, shape 1, paragraph 1, run 1: font size differs');
    expect(verdict.message).toContain('received: 2800');
    expect(verdict.message).toContain('expected: 3200');
  });

  it('passes with the switch off and as an expect matcher', async () => {
    expect((await matchPptx(pptx('font-size'), pptx('base'), { examine_font_size: false })).pass).toBe(true);
    await expect(pptx('base')).toMatchPptx(pptx('base'));
    await expect(expect(pptx('position')).toMatchPptx(pptx('base'))).rejects.toThrow(/slide 1, shape 3: position and size differs/);
  });
});

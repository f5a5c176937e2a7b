// Colour science as scikit-image computes it (rgb2lab with the D65/2° white, deltaE_ciede2000 with kL=kC=kH=1),
// used by evaluate_colored_words_in_tables.
import { MalformedInputError } from '../../../errors.ts';

export type Rgb = readonly [number, number, number];
export type Lab = readonly [number, number, number];

const XYZ_FROM_RGB = [
  [0.412453, 0.35758, 0.180423],
  [0.212671, 0.71516, 0.072169],
  [0.019334, 0.119193, 0.950227],
];
const D65 = [0.95047, 1.0, 1.08883];

/** skimage.color.rgb2lab for one pixel given as sRGB components in [0, 1]. */
export function rgbToLab(rgb: Rgb): Lab {
  const linear = rgb.map((c) => (c > 0.04045 ? ((c + 0.055) / 1.055) ** 2.4 : c / 12.92));
  const xyz = XYZ_FROM_RGB.map((row) => row[0] * linear[0] + row[1] * linear[1] + row[2] * linear[2]);
  const [fx, fy, fz] = xyz.map((v, i) => {
    const t = v / D65[i];
    return t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116;
  });
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** skimage.color.deltaE_ciede2000(lab1, lab2) with kL = kC = kH = 1. */
export function deltaE2000(lab1: Lab, lab2: Lab): number {
  const [L1, a1, b1] = lab1;
  const [L2, a2, b2] = lab2;
  const cBar0 = 0.5 * (Math.hypot(a1, b1) + Math.hypot(a2, b2));
  const c70 = cBar0 ** 7;
  const G = 0.5 * (1 - Math.sqrt(c70 / (c70 + 25 ** 7)));
  const scale = 1 + G;
  const [C1, h1] = polar(a1 * scale, b1);
  const [C2, h2] = polar(a2 * scale, b2);

  const Lbar = 0.5 * (L1 + L2);
  const tmp = (Lbar - 50) ** 2;
  const SL = 1 + (0.015 * tmp) / Math.sqrt(20 + tmp);
  const Lterm = (L2 - L1) / SL;

  const Cbar = 0.5 * (C1 + C2);
  const SC = 1 + 0.045 * Cbar;
  const Cterm = (C2 - C1) / SC;

  const hDiff = h2 - h1;
  const hSum = h1 + h2;
  const CC = C1 * C2;
  let dH = hDiff;
  if (hDiff > Math.PI) dH -= 2 * Math.PI;
  if (hDiff < -Math.PI) dH += 2 * Math.PI;
  if (CC === 0) dH = 0;
  const dHterm = 2 * Math.sqrt(CC) * Math.sin(dH / 2);

  let Hbar = hSum;
  if (CC !== 0 && Math.abs(hDiff) > Math.PI) Hbar += hSum < 2 * Math.PI ? 2 * Math.PI : -2 * Math.PI;
  if (CC === 0) Hbar *= 2;
  Hbar *= 0.5;

  const deg = (d: number) => (d * Math.PI) / 180;
  const T =
    1 -
    0.17 * Math.cos(Hbar - deg(30)) +
    0.24 * Math.cos(2 * Hbar) +
    0.32 * Math.cos(3 * Hbar + deg(6)) -
    0.2 * Math.cos(4 * Hbar - deg(63));
  const SH = 1 + 0.015 * Cbar * T;
  const Hterm = dHterm / SH;

  const c7 = Cbar ** 7;
  const Rc = 2 * Math.sqrt(c7 / (c7 + 25 ** 7));
  const dTheta = deg(30) * Math.exp(-((((Hbar * 180) / Math.PI - 275) / 25) ** 2));
  const Rterm = -Math.sin(2 * dTheta) * Rc * Cterm * Hterm;

  const dE2 = Lterm ** 2 + Cterm ** 2 + Hterm ** 2 + Rterm;
  return Math.sqrt(Math.max(dE2, 0));
}

function polar(x: number, y: number): [number, number] {
  let t = Math.atan2(y, x);
  if (t < 0) t += 2 * Math.PI;
  return [Math.hypot(x, y), t];
}

/** "FF0000" → [255, 0, 0] */
export function hexToRgb(hex: string): Rgb {
  if (!/^[0-9a-fA-F]{6}$/.test(hex)) throw new MalformedInputError(`not an RRGGBB colour: ${JSON.stringify(hex)}`);
  return [parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16)];
}

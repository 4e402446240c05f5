/**
 * What an element's inline style and presentational attributes say about whether its text can be
 * seen. E-mail HTML carries its styles inline (most clients drop <style> blocks), so the attributes
 * of the element are where text is hidden: display:none, a 1px font, white on white.
 */

export type Rgb = readonly [number, number, number];

export interface ElementLook {
  /** Why the element's content cannot be seen whatever is around it, or null. */
  concealedBy: string | null;
  /** Its text colour, when it sets one; 'transparent' for invisible ink. */
  color: Rgb | 'transparent' | null;
  /** Its background colour, when it sets one. */
  background: Rgb | null;
}

export const WHITE: Rgb = [255, 255, 255];

/** A style attribute longer than this is not styling anyone wrote by hand or by a template: the rest is not read. */
const MAX_STYLE_CHARS = 2000;

export function elementLook(attributes: ReadonlyMap<string, string>): ElementLook | null {
  const style = attributes.get('style');
  const declarations = style === undefined ? new Map<string, string>() : parseStyle(style);
  const colorValue = declarations.get('color') ?? attributes.get('color') ?? attributes.get('text');
  const backgroundValue =
    declarations.get('background-color') ?? declarations.get('background') ?? attributes.get('bgcolor');
  if (style === undefined && colorValue === undefined && backgroundValue === undefined && !attributes.has('hidden'))
    return null;
  return {
    concealedBy: concealment(declarations, attributes),
    color: colorValue === undefined ? null : parseColor(colorValue),
    background: backgroundValue === undefined ? null : firstColor(backgroundValue),
  };
}

/** Two colours a reader cannot tell apart as text on background (each channel within 24 of 255). */
export function indistinguishable(a: Rgb, b: Rgb): boolean {
  return a.every((channel, i) => Math.abs(channel - b[i]) <= 24);
}

function parseStyle(style: string): Map<string, string> {
  const declarations = new Map<string, string>();
  for (const declaration of style.slice(0, MAX_STYLE_CHARS).split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    const value = declaration
      .slice(colon + 1)
      .replace(/!\s*important/i, '')
      .trim()
      .toLowerCase();
    declarations.set(property, value); // the last declaration wins, as in CSS
  }
  return declarations;
}

function concealment(css: Map<string, string>, attributes: ReadonlyMap<string, string>): string | null {
  if (attributes.has('hidden')) return 'the hidden attribute';
  if (css.get('display') === 'none') return 'display:none';
  if (css.get('visibility') === 'hidden') return 'visibility:hidden';
  if (css.get('opacity') !== undefined && Number(css.get('opacity')) === 0) return 'opacity:0';
  const size = css.get('font-size');
  if (size !== undefined && isTinyFontSize(size)) return `font-size:${size}`;
  const clipped =
    css.get('overflow') === 'hidden' &&
    [css.get('max-height'), css.get('height')].some((h) => h !== undefined && /^0(?:px|pt|em|rem|%)?$/.test(h));
  if (clipped) return 'a zero height with overflow:hidden';
  return null;
}

/** Text nobody reads: 2px or 2pt and under, a fifth of the parent's size or less. */
function isTinyFontSize(value: string): boolean {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(px|pt|em|rem|%)?$/.exec(value);
  if (!m) return false;
  const n = Number(m[1]);
  switch (m[2]) {
    case undefined:
    case 'px':
    case 'pt':
      return n <= 2;
    case 'em':
    case 'rem':
      return n <= 0.2;
    default:
      return n <= 20; // %
  }
}

const NAMED: Record<string, Rgb> = {
  white: WHITE,
  snow: [255, 250, 250],
  ivory: [255, 255, 240],
  ghostwhite: [248, 248, 255],
  whitesmoke: [245, 245, 245],
  black: [0, 0, 0],
  silver: [192, 192, 192],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  red: [255, 0, 0],
  maroon: [128, 0, 0],
  yellow: [255, 255, 0],
  olive: [128, 128, 0],
  lime: [0, 255, 0],
  green: [0, 128, 0],
  aqua: [0, 255, 255],
  teal: [0, 128, 128],
  blue: [0, 0, 255],
  navy: [0, 0, 128],
  fuchsia: [255, 0, 255],
  purple: [128, 0, 128],
  orange: [255, 165, 0],
};

export function parseColor(raw: string): Rgb | 'transparent' | null {
  const value = raw.trim().toLowerCase();
  if (value === 'transparent') return 'transparent';
  if (value in NAMED) return NAMED[value];
  const hex = /^#?([0-9a-f]{3,8})$/.exec(value)?.[1];
  if (hex !== undefined) {
    if (hex.length === 3 || hex.length === 4)
      return [0, 1, 2].map((i) => parseInt(hex[i] + hex[i], 16)) as unknown as Rgb;
    if (hex.length === 6 || hex.length === 8)
      return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as unknown as Rgb;
    return null;
  }
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*([\d.]{1,8})\s*)?\)$/.exec(value);
  if (rgb) {
    if (rgb[4] !== undefined && Number(rgb[4]) === 0) return 'transparent';
    return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])].map((c) => Math.min(255, c)) as unknown as Rgb;
  }
  return null;
}

/** The colour in a `background` shorthand ("#fff url(x.png) no-repeat"). */
function firstColor(value: string): Rgb | null {
  for (const token of value.slice(0, 200).split(/\s+(?![^(]*\))/)) {
    const color = parseColor(token);
    if (color !== null && color !== 'transparent') return color;
  }
  return null;
}

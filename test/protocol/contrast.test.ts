/**
 * protocol/contrast.ts: WCAG 2.1 contrast ratios, and the readable colours
 * the widget derives from an admin's colour (text on it, the colour as text
 * on white), and the admin form's warning.
 */
import { describe, expect, it } from 'vitest';
import {
  contrastProblem,
  contrastRatio,
  DARK_TEXT,
  MIN_TEXT_CONTRAST,
  parseColor,
  relativeLuminance,
  textColorOnWhite,
  textOn,
  WHITE,
} from '../../protocol/contrast.js';

describe('contrast', () => {
  it('reads #rgb, #rrggbb (alpha ignored) and rgb(), and nothing else', () => {
    expect(parseColor('#fff')).toEqual([255, 255, 255]);
    expect(parseColor('#1A73E8')).toEqual([26, 115, 232]);
    expect(parseColor('#1a73e880')).toEqual([26, 115, 232]);
    expect(parseColor('rgb(10, 20, 30)')).toEqual([10, 20, 30]);
    expect(parseColor('rgba(10,20,30,0.5)')).toEqual([10, 20, 30]);
    for (const bad of ['', 'red', '#12', '#12345', 'rgb(300, 0, 0)', 'hsl(0, 50%, 50%)', 'url(x)']) expect(parseColor(bad)).toBeNull();
  });

  it('computes the WCAG ratios: 21 for black on white, 1 for a colour on itself, symmetric', () => {
    expect(relativeLuminance([0, 0, 0])).toBe(0);
    expect(relativeLuminance([255, 255, 255])).toBe(1);
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777', '#777')).toBeCloseTo(1, 5);
    expect(contrastRatio('#1a73e8', '#fff')).toBeCloseTo(contrastRatio('#fff', '#1a73e8')!, 10);
    // Known values: #767676 is the lightest grey that passes on white; #777 just fails.
    expect(contrastRatio('#767676', '#fff')!).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio('#777777', '#fff')!).toBeLessThan(4.5);
    expect(contrastRatio('nope', '#fff')).toBeNull();
  });

  it('keeps white text on a dark enough colour, and picks dark text on a light one', () => {
    expect(textOn('#1a73e8')).toBe(WHITE);
    expect(textOn('#000080')).toBe(WHITE);
    for (const light of ['#ffeb3b', '#8bc34a', '#00bcd4', '#ff9800', '#f5f5f5']) {
      expect(textOn(light)).toBe(DARK_TEXT);
      expect(contrastRatio(textOn(light), light)!).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    expect(textOn('hsl(0, 0%, 50%)')).toBe(WHITE);
  });

  it('darkens a light colour used as text on white until it reads, and leaves a dark one alone', () => {
    expect(textColorOnWhite('#1a73e8')).toBe('#1a73e8');
    for (const light of ['#ffeb3b', '#8bc34a', '#00bcd4', '#ff9800', '#ffffff']) {
      const c = textColorOnWhite(light);
      expect(c).not.toBe(light);
      expect(contrastRatio(c, '#fff')!).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    expect(textColorOnWhite('hsl(0, 0%, 50%)')).toBe('hsl(0, 0%, 50%)');
  });

  it('warns about a colour white text fails on, naming the ratio and the text colour used instead', () => {
    expect(contrastProblem('#1a73e8')).toBeNull();
    expect(contrastProblem('not a colour')).toBeNull();
    const p = contrastProblem('#ffeb3b');
    expect(p).not.toBeNull();
    expect(p!.ratio).toBeLessThan(2);
    expect(p!.textColor).toBe(DARK_TEXT);
  });
});

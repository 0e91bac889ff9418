import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { cssVariablesResolver, theme } from './theme';

/** WCAG 2 relative luminance of `#rrggbb` or `rgb(r, g, b)`. */
function luminance(color: string): number {
  const channels = color.startsWith('#')
    ? [1, 3, 5].map((at) => parseInt(color.slice(at, at + 2), 16))
    : (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const [r = 0, g = 0, b = 0] = channels.map((value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

describe('theme', () => {
  const resolved = mergeMantineTheme(DEFAULT_THEME, theme);
  const light = cssVariablesResolver(resolved).light;

  it.each(Object.keys(resolved.colors))('the light variant text in %s passes WCAG AA on its tint', (name) => {
    const text = light[`--mantine-color-${name}-light-color`];
    expect(text).toBeDefined();
    // The light variant's background is shade 1 (Mantine's --mantine-color-{name}-light).
    expect(contrast(text ?? '', resolved.colors[name]?.[1] ?? '')).toBeGreaterThanOrEqual(4.5);
  });
});

import { createTheme, darken, type CSSVariablesResolver } from '@mantine/core';
import { t } from '../lib/i18n';

/**
 * Mantine's default primary shade (6), dimmed grey and error red fail WCAG contrast on white:
 * a darker primary shade, automatic text contrast on filled colours and darker greys and reds fix
 * that. The text of the light variant (badges, light buttons: shade 9 on shade 1) reaches only
 * 2.7:1 in yellow and 3.3–3.8:1 in lime, orange and green; 30 % darker it is at least 5:1 in
 * every colour.
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  autoContrast: true,
  defaultRadius: 'md',
  components: {
    // A plain object rather than Modal.extend keeps the Modal code out of the first page's bundle.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } },
    // A toast's close button has only an icon: without a name, screen readers announce "button".
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': t('common.close') } } },
  },
});

const LIGHT_VARIANT_TEXT_DARKENING = 0.3;

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    '--mantine-color-error': resolved.colors.red[8],
    ...Object.fromEntries(
      Object.entries(resolved.colors).map(([name, shades]) => [
        `--mantine-color-${name}-light-color`,
        darken(shades[9], LIGHT_VARIANT_TEXT_DARKENING),
      ]),
    ),
  },
  dark: {},
});

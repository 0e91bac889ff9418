import { createTheme, type CSSVariablesResolver } from '@mantine/core';
import { i18n } from '../lib/i18n';

/**
 * Mantine's default primary shade (6), dimmed grey and error red fail WCAG contrast on white:
 * a darker primary shade, automatic text contrast on filled colours and darker greys and reds fix that.
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  autoContrast: true,
  defaultRadius: 'md',
  components: {
    // A plain object rather than Modal.extend keeps the Modal code out of the first page's bundle.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': i18n.t('common.close') } } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: { '--mantine-color-dimmed': resolved.colors.gray[7], '--mantine-color-error': resolved.colors.red[8] },
  dark: {},
});

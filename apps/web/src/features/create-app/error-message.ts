import { errorText } from '../../lib/api-error';
import { translate } from '../../lib/i18n';

/** The text shown for a failed wizard call: the portal's or region's own message, or a generic one. */
export function wizardErrorMessage(error: unknown): string {
  return translate(errorText(error, { fallback: 'common.anErrorOccurred' }));
}

import { ApiError } from '../../lib/api-client';
import { translate } from '../../lib/i18n';
import { ActivationTimeoutError } from './api/create-application';

/** The text shown for a failed wizard call: the portal's or region's own message, or a generic one. */
export function wizardErrorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof ActivationTimeoutError) return translate(error.message);
  return translate('common.anErrorOccurred');
}

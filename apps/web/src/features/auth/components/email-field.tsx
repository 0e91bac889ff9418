import { TextField, type TextFieldProps } from '../../../components/plain/fields';
import { useTranslation } from '../../../lib/i18n';

/** The address field of the sign-in, reset and resend forms. */
export function EmailField(props: Omit<TextFieldProps, 'label' | 'type' | 'autoComplete'>) {
  const { t } = useTranslation();
  return <TextField label={t('auth.email')} type="email" autoComplete="email" {...props} />;
}

import { isValidEmail } from '@portal/contracts';
import { ValidatedTagsInput } from '../../../components/validated-tags-input';
import { useTranslation } from '../../../lib/i18n';
import { emailTagsFrom } from '../member-rules';

interface EmailTagsInputProps {
  value: string[];
  onChange: (emails: string[]) => void;
  onBlur: () => void;
  maxEntries: number;
}

/** Addresses as tags (§5): pasted lists are split, trimmed and deduplicated; invalid tags show red. */
export function EmailTagsInput({ value, onChange, onBlur, maxEntries }: EmailTagsInputProps) {
  const { t } = useTranslation();
  return (
    <ValidatedTagsInput
      label={t('members.invite.emails')}
      description={t('members.invite.emailsHint', { max: maxEntries })}
      placeholder={t('members.invite.emailsPlaceholder')}
      value={value}
      onChange={(tags) => onChange(emailTagsFrom(tags, maxEntries))}
      onBlur={onBlur}
      isValid={isValidEmail}
      invalidMessage={t('validation.email.invalid')}
      removeLabel={(email) => t('members.invite.removeEmail', { email })}
      maxTags={maxEntries}
      required
    />
  );
}

import { Pill, TagsInput } from '@mantine/core';
import { isValidEmail } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { emailTagsFrom, invalidEmailTags } from '../member-rules';

interface EmailTagsInputProps {
  value: string[];
  onChange: (emails: string[]) => void;
  onBlur: () => void;
  maxEntries: number;
}

/** Addresses as tags (§5): pasted lists are split, trimmed and deduplicated; invalid tags show red. */
export function EmailTagsInput({ value, onChange, onBlur, maxEntries }: EmailTagsInputProps) {
  const { t } = useTranslation();
  const invalid = invalidEmailTags(value);
  return (
    <TagsInput
      label={t('members.invite.emails')}
      description={t('members.invite.emailsHint', { max: maxEntries })}
      placeholder={value.length === 0 ? t('members.invite.emailsPlaceholder') : undefined}
      value={value}
      onChange={(tags) => onChange(emailTagsFrom(tags, maxEntries))}
      onBlur={onBlur}
      maxTags={maxEntries}
      splitChars={[',', ';']}
      error={invalid.length > 0 ? t('validation.email.invalid') : undefined}
      required
      clearable
      renderPill={({ value: tag, onRemove }) => {
        const valid = tag !== undefined && isValidEmail(tag);
        return (
          <Pill
            withRemoveButton
            onRemove={onRemove}
            bg={valid ? undefined : 'red.1'}
            c={valid ? undefined : 'red.9'}
            removeButtonProps={{ 'aria-label': t('members.invite.removeEmail', { email: tag ?? '' }) }}
          >
            {tag}
          </Pill>
        );
      }}
    />
  );
}

import { Textarea } from '@mantine/core';
import { CopyAction } from '../../../components/copy-action';
import { useTranslation } from '../../../lib/i18n';

/**
 * A value to copy into another system: read-only and selectable, wrapped so that all of it shows
 * (the URLs differ only at their ends), with a copy button that confirms.
 */
export function CopyableValue({
  label,
  description,
  value,
}: {
  label: string;
  description?: string;
  value: string;
}) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={label}
      description={description}
      value={value}
      readOnly
      autosize
      minRows={1}
      spellCheck={false}
      onFocus={(event) => event.currentTarget.select()}
      rightSection={<CopyAction value={value} label={t('ssoSettings.copy', { label })} />}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' } }}
    />
  );
}

import { Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { formatLastLogin } from '../member-rules';

/** 'dd MMM yyyy' over 'HH:mm' in a table cell, on one line elsewhere; 'Never' for 0. */
export function LastLogin({ lastLogin, inline = false }: { lastLogin: number; inline?: boolean }) {
  const { t } = useTranslation();
  const formatted = formatLastLogin(lastLogin);
  if (!formatted) return <>{t('members.lastLogin.never')}</>;
  if (inline) return <>{`${formatted.date} ${formatted.time}`}</>;
  return (
    <div>
      <Text size="sm">{formatted.date}</Text>
      <Text size="xs" c="dimmed">
        {formatted.time}
      </Text>
    </div>
  );
}

import { Badge } from '@mantine/core';
import type { TransactionStatus } from '@portal/contracts';
import { useTranslation } from '../../../lib/i18n';
import { statusTone, type StatusTone } from '../transactions';

const TONE_COLORS: Record<StatusTone, string> = { success: 'green', info: 'blue' };

/** A transaction's status: paid in the success colour, the others in the information colour (§2). */
export function StatusBadge({ status }: { status: TransactionStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={TONE_COLORS[statusTone(status)]} variant="light">
      {t(`billing.status.${status}`)}
    </Badge>
  );
}

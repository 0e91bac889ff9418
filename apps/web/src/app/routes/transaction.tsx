import { withMantine } from '../../components/mantine-shell';
import { TransactionPage } from '../../features/billing/components/transaction-page';

export const Component = withMantine(TransactionPage);

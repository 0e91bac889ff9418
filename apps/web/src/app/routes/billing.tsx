import { withMantine } from '../../components/mantine-shell';
import { BillingPage } from '../../features/billing/components/billing-page';

export const Component = withMantine(BillingPage);

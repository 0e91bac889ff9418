import { withMantine } from '../../components/mantine-shell';
import { SubscriptionPage } from '../../features/billing/components/subscription-page';

export const Component = withMantine(SubscriptionPage);

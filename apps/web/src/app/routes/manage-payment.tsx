import { withMantine } from '../../components/mantine-shell';
import { ManagePaymentPage } from '../../features/billing/components/manage-payment-page';
import { addMessages } from '../../lib/i18n';
import { enPayments } from '../../locales/en-payments';

addMessages(enPayments);

export const Component = withMantine(ManagePaymentPage);

import { MantineShell } from '../../components/mantine-shell';
import { PaymentPage } from '../../features/billing/components/payment-page';
import { addMessages } from '../../lib/i18n';
import { enPayments } from '../../locales/en-payments';
import { SignedInShell } from '../signed-in-shell';

addMessages(enPayments);

/** Card payment stands outside the navigation layout (§2), so it brings the signed-in shell itself. */
export function Component() {
  return (
    <SignedInShell>
      <MantineShell>
        <PaymentPage />
      </MantineShell>
    </SignedInShell>
  );
}

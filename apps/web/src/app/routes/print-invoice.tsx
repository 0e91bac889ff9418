// No Mantine: the page only waits for the invoice's address and replaces itself with it.
export { PrintInvoice as Component } from '../../features/billing/components/print-invoice';

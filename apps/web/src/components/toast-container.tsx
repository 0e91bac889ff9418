import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { MantineShell } from './mantine-shell';

export default function ToastContainer() {
  return (
    <MantineShell>
      <Notifications position="top-right" />
    </MantineShell>
  );
}

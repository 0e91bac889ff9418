import { IconAlertCircle, IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { translate } from '../lib/i18n';
import { classNames } from './plain/layout';
import classes from './plain/plain.module.css';

export type AlertKind = 'success' | 'fail' | 'warning';

const ICONS = { success: IconCircleCheck, fail: IconAlertCircle, warning: IconAlertTriangle } as const;

/** A success, warning or failure message box, with anything under the message (a link, a button). */
export function AlertBox({ kind, children }: { kind: AlertKind; children: ReactNode }) {
  const Icon = ICONS[kind];
  return (
    <div role={kind === 'fail' ? 'alert' : 'status'} className={classNames(classes.alert, classes[kind])}>
      <Icon size={20} aria-hidden />
      <div>{children}</div>
    </div>
  );
}

/** A success or failure message, given as a message key or the server's own text. */
export function StatusAlert({ kind, message }: { kind: AlertKind; message: string | null | undefined }) {
  if (!message) return null;
  return <AlertBox kind={kind}>{translate(message)}</AlertBox>;
}

import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { translate } from '../lib/i18n';
import { classNames } from './plain/layout';
import classes from './plain/plain.module.css';

export type AlertKind = 'success' | 'fail';

/** A success or failure message box, with anything under the message (a link). */
export function AlertBox({ kind, children }: { kind: AlertKind; children: ReactNode }) {
  const success = kind === 'success';
  const Icon = success ? IconCircleCheck : IconAlertCircle;
  return (
    <div role={success ? 'status' : 'alert'} className={classNames(classes.alert, classes[kind])}>
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

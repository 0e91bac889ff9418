import type { NotificationData } from '@mantine/notifications';
import { translate } from './i18n';

/**
 * Toasts are Mantine notifications, on screen only where a toast container is mounted (every page
 * under SignedInShell). The public pages load without Mantine, so there a form shows a network
 * failure itself.
 */
let toastContainers = 0;
let anyToastShown = false;
const toastsShownListeners = new Set<() => void>();

/** Whether a toast was shown yet: the container, and Mantine with it, loads with the first one. */
export function toastsShown(): boolean {
  return anyToastShown;
}

export function subscribeToToastsShown(listener: () => void): () => void {
  toastsShownListeners.add(listener);
  return () => toastsShownListeners.delete(listener);
}

/** Called by a toast container while it is mounted. */
export function registerToastContainer(): () => void {
  toastContainers += 1;
  return () => {
    toastContainers -= 1;
  };
}

export function canToast(): boolean {
  return toastContainers > 0;
}

/**
 * Shows a toast. Mantine's notifications load with the first toast rather than with the page, so
 * a page that never toasts does not load them.
 */
export function showToast(toast: NotificationData): void {
  if (!canToast()) return;
  if (!anyToastShown) {
    anyToastShown = true;
    toastsShownListeners.forEach((listener) => listener());
  }
  void import('@mantine/notifications').then(({ notifications }) => notifications.show(toast));
}

/** A red toast with a message key or the server's text; calls with one id show one toast. */
export function toastError(message: string, id?: string): void {
  showToast({ id, color: 'red', message: translate(message) });
}

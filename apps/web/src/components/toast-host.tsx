import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';
import { registerToastContainer, subscribeToToastsShown, toastsShown } from '../lib/toasts';

// Mantine's notifications, their stylesheet and a Mantine provider load with the first toast;
// a toast raised before they arrive waits in the notifications store and shows once they mount.
const ToastContainer = lazy(() => import('./toast-container'));

const noToastShown = () => false;

/** Where the signed-in pages' toasts appear. */
export function ToastHost() {
  useEffect(registerToastContainer, []);
  // No toast has been raised in a server render, nor in the browser's first render that takes it over.
  const shown = useSyncExternalStore(subscribeToToastsShown, toastsShown, noToastShown);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}

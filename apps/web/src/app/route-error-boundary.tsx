import { Component, type ReactNode } from 'react';
import { ErrorPage } from '../components/error-page';

/**
 * What a page shows when it fails to load or render: the error page. It is keyed by the address
 * where it is used, so opening another page tries again.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}

import { STOREFRONT_MESSAGES } from '@spc/shared-contracts';
import { Component, type ReactNode } from 'react';

/** Catches a screen that fails to render or load (for example a chunk that cannot be fetched). */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="page center">
        <p role="alert">{STOREFRONT_MESSAGES.somethingWentWrong}</p>
        <a href="/">back home</a>
      </div>
    );
  }
}

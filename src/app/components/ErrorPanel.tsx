// Error panel (SPEC §2 "Error panel"): catches a screen's render error, shows 'Something went wrong',
// and resets when the location changes so navigating away recovers the app; 'Try again' renders the
// screen again in place (a screen whose code failed to download loads afresh, see retryableLazy).
import Box from '@mui/material/Box';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { useT } from '../i18n/LocaleProvider';
import { ErrorNotice } from './ErrorNotice';
import { PlainButton } from './LinkButton';
import { retryFailedLoads } from './retryableLazy';
import { shellStrings } from './strings';

interface BoundaryProps {
  /** When this changes while an error is shown, the panel clears and renders its children again. */
  readonly resetKey: string;
  readonly children: ReactNode;
  /** What shows instead of the children once they failed (default: the error panel). */
  readonly fallback?: (error: Error) => ReactNode;
}

interface BoundaryState {
  readonly error: Error | undefined;
  readonly errorKey: string | undefined;
}

export class ErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: undefined, errorKey: undefined };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    // Remember where the error happened: a different resetKey later means the user has moved on.
    if (state.error && state.errorKey === undefined) return { errorKey: props.resetKey };
    return null;
  }

  override componentDidUpdate(): void {
    const { error, errorKey } = this.state;
    if (error && errorKey !== undefined && errorKey !== this.props.resetKey) this.reset();
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('ErrorPanel caught', error, info.componentStack);
  }

  /** Renders the screen again; a screen whose code failed to download downloads it afresh. */
  private readonly reset = (): void => {
    retryFailedLoads();
    this.setState({ error: undefined, errorKey: undefined });
  };

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    if (this.props.fallback) return this.props.fallback(error);
    return <ErrorFallback error={error} onRetry={this.reset} />;
  }
}

/** What the panel shows in place of the failed screen, in the app's language. */
function ErrorFallback({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const t = useT();
  return (
    <Box sx={{ m: 2 }}>
      <ErrorNotice title={t(shellStrings.somethingWrong)}>{error.message}</ErrorNotice>
      <Box sx={{ mt: 2 }}>
        <PlainButton type="button" variant="outlined" onClick={onRetry}>
          {t(shellStrings.tryAgain)}
        </PlainButton>
      </Box>
    </Box>
  );
}

/** The error boundary keyed on the router location. */
export function ErrorPanel({
  children,
  fallback,
}: {
  children: ReactNode;
  fallback?: (error: Error) => ReactNode;
}) {
  const location = useLocation();
  return (
    <ErrorBoundary resetKey={location.key + location.pathname + location.search} fallback={fallback}>
      {children}
    </ErrorBoundary>
  );
}

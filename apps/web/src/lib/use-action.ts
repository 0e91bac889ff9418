import { useCallback, useState } from 'react';

type ActionState<V, R> =
  | { status: 'idle' }
  | { status: 'pending'; variables: V }
  | { status: 'success'; variables: V; data: R }
  | { status: 'error'; variables: V; error: unknown };

export interface ActionCallbacks<V, R> {
  onSuccess?: (data: R, variables: V) => void;
  onError?: (error: unknown, variables: V) => void;
  onSettled?: () => void;
}

/**
 * A call the user starts (sign in, send a code), with its pending, success and error state, shaped
 * like TanStack Query's mutations so pages read the same. The public pages use it because they load
 * before TanStack Query (decision 012). `run` may finish its own follow-up (reloading the account)
 * before the call counts as done. Pass a function defined outside the component, so `mutate` stays
 * the same between renders.
 */
export function useAction<V = void, R = unknown>(run: (variables: V) => Promise<R>) {
  const [state, setState] = useState<ActionState<V, R>>({ status: 'idle' });

  const mutate = useCallback(
    (variables: V, callbacks: ActionCallbacks<V, R> = {}) => {
      setState({ status: 'pending', variables });
      run(variables).then(
        (data) => {
          setState({ status: 'success', variables, data });
          callbacks.onSuccess?.(data, variables);
          callbacks.onSettled?.();
        },
        (error: unknown) => {
          setState({ status: 'error', variables, error });
          callbacks.onError?.(error, variables);
          callbacks.onSettled?.();
        },
      );
    },
    [run],
  );

  return {
    mutate,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    error: state.status === 'error' ? state.error : null,
    data: state.status === 'success' ? state.data : undefined,
    variables: state.status === 'idle' ? undefined : state.variables,
  };
}

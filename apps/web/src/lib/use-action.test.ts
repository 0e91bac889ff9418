// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAction } from './use-action';

const double = async (value: number) => value * 2;
const refuse = async (_value: number): Promise<number> => {
  throw new Error('refused');
};

describe('useAction', () => {
  it('runs the call, reports pending then success with the answer, and calls back', async () => {
    const { result } = renderHook(() => useAction(double));
    const onSuccess = vi.fn();
    const onSettled = vi.fn();
    await act(async () => result.current.mutate(21, { onSuccess, onSettled }));
    expect(result.current.isSuccess).toBe(true);
    expect(result.current.data).toBe(42);
    expect(result.current.variables).toBe(21);
    expect(onSuccess).toHaveBeenCalledWith(42, 21);
    expect(onSettled).toHaveBeenCalled();
  });

  it('reports a failure with its error and calls back', async () => {
    const { result } = renderHook(() => useAction(refuse));
    const onError = vi.fn();
    await act(async () => result.current.mutate(1, { onError }));
    expect(result.current.isSuccess).toBe(false);
    expect(result.current.isPending).toBe(false);
    expect((result.current.error as Error).message).toBe('refused');
    expect(onError).toHaveBeenCalledWith(expect.any(Error), 1);
  });

  it('keeps the same mutate between renders', () => {
    const { result, rerender } = renderHook(() => useAction(double));
    const first = result.current.mutate;
    rerender();
    expect(result.current.mutate).toBe(first);
  });
});

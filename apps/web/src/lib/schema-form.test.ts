// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react';
import { SignInRequestSchema, SignUpRequestSchema } from '@portal/contracts';
import type { ChangeEvent, FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useSchemaForm } from './schema-form';

const typed = (value: string) => ({ currentTarget: { value } }) as ChangeEvent<HTMLInputElement>;
const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent;

describe('useSchemaForm', () => {
  it('shows messages only after a submit, then follows every change, and submits the schema output', async () => {
    const { result } = renderHook(() =>
      useSchemaForm({
        defaultValues: { email: '', password: '' },
        loadSchema: async () => SignInRequestSchema,
      }),
    );
    act(() => result.current.field('email').onChange(typed('ann@')));
    expect(result.current.isDirty).toBe(true);
    expect(result.current.errorOf('email')).toBeUndefined();

    const onValid = vi.fn();
    await act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).not.toHaveBeenCalled();
    expect(result.current.errorOf('email')).toBe('Please enter a valid email.');

    act(() => result.current.field('email').onChange(typed('  ann@acme.io ')));
    act(() => result.current.field('password').onChange(typed('secret1')));
    expect(result.current.errorOf('email')).toBeUndefined();
    await act(() => result.current.handleSubmit(onValid)(submitEvent()));
    expect(onValid).toHaveBeenCalledWith({ email: 'ann@acme.io', password: 'secret1' });
  });

  it("in 'touched' mode shows a field's message once it was left, and tracks validity from the first key", async () => {
    const loadSchema = vi.fn(async () => SignUpRequestSchema);
    const { result } = renderHook(() =>
      useSchemaForm({ defaultValues: { email: '', password: '' }, loadSchema, mode: 'touched' }),
    );
    expect(loadSchema).not.toHaveBeenCalled();
    await act(async () => result.current.field('email').onFocus());
    expect(loadSchema).toHaveBeenCalledTimes(1);

    act(() => result.current.field('email').onChange(typed('ann@gmail.com')));
    expect(result.current.errorOf('email')).toBeUndefined();
    act(() => result.current.field('email').onBlur());
    expect(result.current.errorOf('email')).toMatch(/corporate email/);
    expect(result.current.isValid).toBe(false);

    act(() => result.current.field('email').onChange(typed('ann@acme.io')));
    act(() => result.current.field('password').onChange(typed('Str0ng!Passw0rd')));
    expect(result.current.isValid).toBe(true);
  });

  it("keeps a server's message on a field until that field changes", async () => {
    const { result } = renderHook(() =>
      useSchemaForm({
        defaultValues: { email: '', password: '' },
        loadSchema: async () => SignInRequestSchema,
      }),
    );
    act(() => result.current.setError('email', { message: 'loginWithEmail.error.accountExists' }));
    expect(result.current.errorOf('email')).toBe('this account is existed already');
    act(() => result.current.field('password').onChange(typed('x')));
    expect(result.current.errorOf('email')).toBe('this account is existed already');
    act(() => result.current.field('email').onChange(typed('b@acme.io')));
    expect(result.current.errorOf('email')).toBeUndefined();
  });
});

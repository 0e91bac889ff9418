// @vitest-environment jsdom
import { act, useState, type ReactElement } from 'react';
import type { Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useSchemaForm } from '../../lib/schema-form';
import { takeOverRenderedPage } from '../../lib/take-over';
import { TextField } from './fields';

/** A sign-in form of the schema form, with its values written out where the test can read them. */
function SignInForm() {
  const form = useSchemaForm({
    defaultValues: { email: '', password: '' },
    loadSchema: () => Promise.resolve(z.object({ email: z.string(), password: z.string().min(1) })),
  });
  return (
    <form>
      <TextField label="Email" {...form.field('email')} />
      <TextField label="Password" type="password" {...form.field('password')} />
      <output>{JSON.stringify(form.values)}</output>
      <button type="submit" disabled={!form.isDirty}>
        Sign in
      </button>
    </form>
  );
}

/** A field whose owner takes no typing made before the take-over. */
function SearchField() {
  const [search, setSearch] = useState('');
  return (
    <TextField label="Search" value={search} onChange={(event) => setSearch(event.currentTarget.value)} />
  );
}

// Lets act() flush React's work, as Testing Library does.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

/** The server's HTML of `page` in the document, as the browser has it before the page's script runs. */
function serverRendered(page: ReactElement): HTMLElement {
  const container = document.createElement('div');
  container.innerHTML = renderToString(page);
  document.body.append(container);
  return container;
}

/** The input a label names. */
function input(container: HTMLElement, label: string): HTMLInputElement {
  const element = [...container.querySelectorAll('label')].find((each) => each.textContent === label);
  return document.getElementById(element!.htmlFor) as HTMLInputElement;
}

describe('a field of a server-rendered page', () => {
  it('takes what was typed before the take-over into its form, which keeps it and can submit it', async () => {
    const container = serverRendered(<SignInForm />);
    expect(input(container, 'Email').readOnly).toBe(false);
    input(container, 'Email').value = 'ann@acme.io';
    input(container, 'Password').value = 'Typed-early-1';

    await act(async () => {
      root = takeOverRenderedPage(container, <SignInForm />);
    });

    expect(JSON.parse(container.querySelector('output')!.textContent!)).toEqual({
      email: 'ann@acme.io',
      password: 'Typed-early-1',
    });
    expect(input(container, 'Email').value).toBe('ann@acme.io');
    expect(container.querySelector('button')!.disabled).toBe(false);
  });

  it('takes no typing before the take-over where its owner could not keep it', async () => {
    const container = serverRendered(<SearchField />);
    expect(input(container, 'Search').readOnly).toBe(true);
    await act(async () => {
      root = takeOverRenderedPage(container, <SearchField />);
    });
    expect(input(container, 'Search').readOnly).toBe(false);
  });
});

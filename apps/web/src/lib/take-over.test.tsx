// @vitest-environment jsdom
import { act, useState } from 'react';
import type { Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { takeOverRenderedPage } from './take-over';

function Counter() {
  const [clicks, setClicks] = useState(0);
  return <button onClick={() => setClicks((count) => count + 1)}>Clicked {clicks} times</button>;
}

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('taking a server-rendered page over', () => {
  it('keeps the server’s elements and handles a click made before the take-over has finished', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Counter />);
    document.body.append(container);
    const button = container.querySelector('button')!;

    root = takeOverRenderedPage(container, <Counter />);
    // Nothing has been hydrated yet: the take-over waits for its first slice.
    button.click();
    await act(async () => {});

    expect(container.querySelector('button')).toBe(button);
    expect(button.textContent).toBe('Clicked 1 times');
  });
});

// @vitest-environment jsdom
import { act, useEffect } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endTakeOver, useBrowserValue } from './hydration';
import { takeOverRenderedPage } from './take-over';

let width = 'wide';
const widthListeners = new Set<() => void>();
const readWidth = () => width;
function subscribeToWidth(onChange: () => void) {
  widthListeners.add(onChange);
  return () => widthListeners.delete(onChange);
}

/** Every value the component rendered, in order. */
let rendered: string[] = [];

function Width() {
  const value = useBrowserValue(readWidth, subscribeToWidth) ?? 'unknown';
  rendered.push(value);
  return <p>{value}</p>;
}

let root: Root | undefined;
afterEach(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  act(() => root?.unmount());
  root = undefined;
  endTakeOver();
  document.body.innerHTML = '';
  rendered = [];
  width = 'wide';
});

function container(html = ''): HTMLElement {
  const element = document.createElement('div');
  element.innerHTML = html;
  document.body.append(element);
  return element;
}

/** Renders <Width /> into a new container as the browser draws a page alone. */
function drawnAlone(): HTMLElement {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const element = container();
  act(() => {
    root = createRoot(element);
    root.render(<Width />);
  });
  return element;
}

describe('a value only the browser knows', () => {
  it('is unknown in a server render', () => {
    expect(renderToString(<Width />)).toBe('<p>unknown</p>');
  });

  it('is there in the first render of a page the browser draws alone', () => {
    const element = drawnAlone();
    expect(rendered[0]).toBe('wide');
    expect(element.textContent).toBe('wide');
  });

  it('follows its changes', () => {
    const element = drawnAlone();
    act(() => {
      width = 'narrow';
      widthListeners.forEach((listener) => listener());
    });
    expect(element.textContent).toBe('narrow');
  });

  it('arrives after the task that ends a take-over, which writes what the server wrote', async () => {
    // Real scheduling: act would run every render at once and hide the order being tested.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    const errors = vi.spyOn(console, 'error');
    let textAtTakeOverTask: string | undefined;
    let takenOver!: () => void;
    const whenTakenOver = new Promise<void>((resolve) => (takenOver = resolve));
    function TakenOver() {
      useEffect(() => {
        endTakeOver();
        // The microtask runs at the end of this task, after any render React must do in it.
        queueMicrotask(() => {
          textAtTakeOverTask = element.textContent ?? undefined;
          takenOver();
        });
      }, []);
      return null;
    }
    const page = (
      <>
        <Width />
        <TakenOver />
      </>
    );
    const element = container(renderToString(page));

    root = takeOverRenderedPage(element, page);
    await whenTakenOver;
    expect(textAtTakeOverTask).toBe('unknown');
    await vi.waitFor(() => expect(element.textContent).toBe('wide'));
    expect(rendered).toEqual(['unknown', 'unknown', 'wide']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});

// @vitest-environment jsdom
import { act, useEffect, type ReactNode } from 'react';
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

/** Room for a busy machine: waits end as soon as what they wait for is there. */
const WAIT = { timeout: 10_000 };

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

  /**
   * Renders `page` on the "server" and takes it over as main.tsx does, with `marker` standing where
   * the router puts its TakenOver, which ends the take-over in its effect. Checks the text on screen
   * at the end of the task that ran that effect, after the take-over's end has taken effect.
   */
  async function takeOverWithMarker(page: (marker: ReactNode) => ReactNode): Promise<HTMLElement> {
    // Real scheduling: act would run every render at once and hide the order being tested.
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
    let takenOver!: (text: string | null) => void;
    const textAtTakeOverTask = new Promise<string | null>((resolve) => (takenOver = resolve));
    function TakenOver() {
      useEffect(() => {
        endTakeOver();
        // A task's microtasks run once React has done every render it must do in that task. Two deep,
        // so the text is read after endTakeOver's own microtask has ended the take-over.
        queueMicrotask(() => queueMicrotask(() => takenOver(element.textContent)));
      }, []);
      return null;
    }
    const element = container(renderToString(page(<TakenOver />)));
    root = takeOverRenderedPage(element, page(<TakenOver />));
    expect(await textAtTakeOverTask).toBe('unknown');
    return element;
  }

  it('arrives after the task that ends a take-over, which writes what the server wrote', async () => {
    const errors = vi.spyOn(console, 'error');
    const element = await takeOverWithMarker((marker) => (
      <>
        <Width />
        {marker}
      </>
    ));
    await vi.waitFor(() => expect(element.textContent).toBe('wide'), WAIT);
    expect(rendered).toEqual(['unknown', 'unknown', 'wide']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('re-renders nothing when the take-over ends inside the component that shows it', async () => {
    // The router's marker sits inside the page, inside the frame that shows the width. A parent's
    // effects run after its children's: ending the take-over at once would make the frame's store
    // differ from what it was rendered with, which React answers with a blocking render of it.
    function Frame({ children }: { children: ReactNode }) {
      const value = useBrowserValue(readWidth, subscribeToWidth) ?? 'unknown';
      rendered.push(value);
      return (
        <main>
          {value}
          {children}
        </main>
      );
    }
    const errors = vi.spyOn(console, 'error');
    const element = await takeOverWithMarker((marker) => <Frame>{marker}</Frame>);
    await vi.waitFor(() => expect(element.textContent).toBe('wide'), WAIT);
    expect(rendered).toEqual(['unknown', 'unknown', 'wide']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });
});

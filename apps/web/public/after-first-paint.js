// A server-rendered page (decision 026) is on screen before any of its scripts has run: this starts
// loading them once the browser has painted it, so the first paint waits for nothing but the page
// itself. The page names its entry script and the modules that entry imports; they are fetched
// together (no request waits for another) and the entry then takes the page over.
(() => {
  const script = document.currentScript;
  const entry = script.getAttribute('data-entry');
  const modules = (script.getAttribute('data-modules') ?? '').split(' ').filter(Boolean);
  let started = false;
  const load = () => {
    if (started) return;
    started = true;
    for (const href of modules) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    void import(entry);
  };

  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    // The first contentful paint is reported once it is on screen (earlier ones are buffered).
    new PerformanceObserver((entries, observer) => {
      if (entries.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      load();
    }).observe({ type: 'paint', buffered: true });
    // A page that is not painted (a tab opened in the background) loads all the same.
    setTimeout(load, 2000);
  } else {
    // A task after the next animation frame runs once that frame has been painted.
    requestAnimationFrame(() => setTimeout(load, 0));
  }
})();

import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../../tools/chromium.ts';
import { seedApplications, signedInOwner, withFreshPortal, type BenchPortal } from '../bench-support.ts';

const dists = (process.env.PROBE_DIST ?? '').split(',').filter(Boolean);
const LOADS = Number(process.env.PROBE_LOADS ?? 11);
const PATH = process.env.PROBE_PATH ?? '/apps/asc';

function recordTakeOver() {
  const record: any = { longTasks: [], loafs: [] };
  (window as any).rec = record;
  new PerformanceObserver((entries) => {
    const paint = entries.getEntriesByName('first-contentful-paint')[0];
    if (paint) record.fcp = paint.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((entries) => {
    for (const t of entries.getEntries()) record.longTasks.push([t.startTime, t.startTime + t.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((entries) => {
    for (const t of entries.getEntries() as any[])
      record.loafs.push({
        s: Math.round(t.startTime), d: Math.round(t.duration), block: Math.round(t.blockingDuration),
        scripts: t.scripts.map((x: any) => `${x.invoker}|${(x.sourceURL || '').split('/').pop()}:${x.sourceFunctionName} ${Math.round(x.duration)}`),
      });
  }).observe({ type: 'long-animation-frame', buffered: true });
  new MutationObserver((_c, o) => {
    if (!document.documentElement.hasAttribute('data-hydrated')) return;
    record.hydratedAt = performance.now();
    const card = document.querySelectorAll('article, [aria-labelledby^="app-"]');
    record.cardsHydrated = [...card].filter((c) => Object.keys(c).some((k) => k.startsWith('__reactFiber'))).length + '/' + card.length;
    o.disconnect();
    (window as any).portalTakenOver();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
}

async function once(browser: Browser, url: string, cookie: string) {
  const context = await browser.newContext({ extraHTTPHeaders: process.env.PROBE_ANON ? {} : { Cookie: cookie } });
  try {
    const tab = await context.newPage();
    let done!: () => void;
    const taken = new Promise<void>((r) => (done = r));
    await tab.exposeBinding('portalTakenOver', () => done());
    await tab.addInitScript(recordTakeOver);
    const cdp = await context.newCDPSession(tab);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(process.env.PROBE_RATE ?? 4) });
    const tracing = process.env.PROBE_TRACE;
    if (tracing) await browser.startTracing(tab, { path: tracing, screenshots: false });
    if (process.env.PROBE_PROFILE) { await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start'); }
    await tab.goto(url);
    await taken;
    await tab.waitForLoadState('networkidle');
    if (tracing) await browser.stopTracing();
    if (process.env.PROBE_PROFILE) { const { profile } = await cdp.send('Profiler.stop'); (globalThis as any).lastProfile = profile; }
    const rec: any = await tab.evaluate(() => (window as any).rec);
    const nav: any = await tab.evaluate(() => { const n: any = performance.getEntriesByType('navigation')[0]; (window as any).res = (performance.getEntriesByType('resource') as any[]).map((e) => `${e.name.replace(location.origin, '')} ${e.initiatorType} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`); const js = (performance.getEntriesByType('resource') as any[]).filter((e) => e.name.endsWith('.js')); return { res: (window as any).res, rs: n.responseStart, re: n.responseEnd, dcl: n.domContentLoadedEventStart, jsStart: Math.min(...js.map((e) => e.startTime)), jsEnd: Math.max(...js.map((e) => e.responseEnd)), nJs: js.length }; });
    let answers = rec.hydratedAt;
    for (const [s, e] of [...rec.longTasks].sort((a: any, b: any) => a[0] - b[0])) if (s <= answers && e > answers) answers = e;
    return { cards: rec.cardsHydrated, nav, fcp: rec.fcp, hyd: rec.hydratedAt, answers, gap: answers - rec.fcp, loafs: rec.loafs };
  } finally {
    await context.close();
  }
}

async function main() {
  const portals: { dist: string; base: string; cookie: string }[] = [];
  const start = async (i: number): Promise<void> => {
    if (i === dists.length) return run();
    await withFreshPortal(undefined, async ({ database, base }: BenchPortal) => {
      const email = 'probe@acme.io';
      const cookie = await signedInOwner(base, email);
      await seedApplications(database, email, 30);
      portals.push({ dist: dists[i]!, base, cookie });
      await start(i + 1);
    }, { WEB_DIST_DIR: dists[i]! });
  };
  const run = async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const gaps = new Map<string, number[]>(portals.map((p) => [p.dist, []]));
    for (const p of portals) await once(browser, p.base + PATH, p.cookie); // warm server
    for (let i = 0; i < LOADS; i++)
      for (const p of portals) {
        const r = await once(browser, p.base + PATH, p.cookie);
        gaps.get(p.dist)!.push(r.gap);
        console.log(`${p.dist.split('/').pop()} fcp ${r.fcp.toFixed(0)} hyd ${r.hyd.toFixed(0)} answers ${r.answers.toFixed(0)} gap ${r.gap.toFixed(0)} cards ${r.cards} ttfb ${r.nav.rs.toFixed(0)} respEnd ${r.nav.re.toFixed(0)} dcl ${r.nav.dcl.toFixed(0)} js ${r.nav.nJs} ${r.nav.jsStart.toFixed(0)}-${r.nav.jsEnd.toFixed(0)}`);
        if (process.env.PROBE_PROFILE) (await import('node:fs')).writeFileSync(`${process.env.PROBE_PROFILE}-${p.dist.split('/').pop()}-${i}.json`, JSON.stringify({ profile: (globalThis as any).lastProfile, fcp: r.fcp, answers: r.answers, timeOrigin: 0 }));
        if (process.env.PROBE_RES) for (const x of r.nav.res) console.log('   res', x);
        if (process.env.PROBE_LOAF) for (const l of r.loafs) console.log('   loaf', JSON.stringify(l));
      }
    await browser.close();
    for (const [d, g] of gaps) {
      const s = [...g].sort((a, b) => a - b);
      console.log(`${d}: median ${s[Math.floor(s.length / 2)]!.toFixed(0)} all ${s.map((x) => x.toFixed(0)).join(' ')}`);
    }
  };
  await start(0);
}
await main();

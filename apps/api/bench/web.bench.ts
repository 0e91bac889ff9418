/**
 * `npm run bench:web`: Lighthouse's performance figures for the portal's /login, /signup and a
 * signed-in /apps/asc, beside a bare React 19 page (the floor: React and react-dom with nothing
 * else), each built and served compressed as in production.
 *
 * Both are built into a temporary directory (never apps/web/dist, which the browser tests use)
 * and get brotli and gzip copies from apps/web/scripts/precompress.mjs. The portal serves its
 * build in this process over a fresh database (PGlite, or DATABASE_URL's server), with one owner
 * signed up and an organisation of a few applications; the floor page is served by Fastify and
 * @fastify/static with preCompressed, as the portal serves its assets. Lighthouse runs its default
 * configuration (mobile form factor), performance category only, in Debian's Chromium started
 * afresh for each run as Lighthouse's command line does, once with the load slowed as it happens
 * (devtools throttling, on which the targets are judged) and once with its simulated throttling:
 * 3 rounds over the four pages in turn for each, so that a change in the machine's load falls on
 * every page alike. It prints the medians, what Lighthouse estimates costs each portal page the
 * most, and one line per target, and exits 1 when a judged target is missed.
 *
 * Then, in Playwright's Chromium with the CPU slowed 4× (Lighthouse's mobile factor) and a cold cache
 * each time, it loads each portal page TAKE_OVER_LOADS times and measures how long after its first
 * contentful paint the page answers input (decision 045): once its script has taken it over
 * (`<html data-hydrated>`) and the long task doing so has ended. It prints the medians beside the
 * floor page's time to interactive from Lighthouse, with a target line each. The floor page is
 * measured so too, served already rendered and hydrated as the portal's pages are (hydrate.html):
 * the least gap any React page has on the machine, and each page's gap as a multiple of it, a figure
 * that a slower or faster machine changes less than the gap itself.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fastifyStatic from '@fastify/static';
import react from '@vitejs/plugin-react';
import { chromium, type Browser } from '@playwright/test';
import { launch } from 'chrome-launcher';
import Fastify from 'fastify';
import lighthouse, { type Result } from 'lighthouse';
import { build } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH, chromiumAvailable } from '../../../tools/chromium.ts';
import { serverRenderDir } from '../src/web/server-render.ts';
import { seedApplications, signedInOwner, withFreshPortal } from './bench-support.ts';

const ROUNDS = 3;
/**
 * Lighthouse's two ways of slowing a mobile load (decision 045). `simulate`, its default, loads the
 * page at full speed and estimates the slow load from what it saw; `devtools` loads it slowed (the
 * same 4× CPU, 150 ms round trips and 1.6 Mbps as the estimate assumes) and reads what happened.
 * The targets are judged on the second: on this localhost the estimate counts every script that
 * arrived before the page painted as one the paint waited for (module scripts, which cannot block a
 * paint, included), and its TBT is four times an unthrottled load's tasks.
 */
const THROTTLING_METHODS = ['devtools', 'simulate'] as const;
type ThrottlingMethod = (typeof THROTTLING_METHODS)[number];
/** The method whose figures the targets are judged on. */
const JUDGED_METHOD: ThrottlingMethod = 'devtools';
const TARGET_SCORE = 95;
/** Issue 28: a rendered page paints no later than the bare React page. */
const TARGET_LCP_RATIO_TO_FLOOR = 1.0;
const TARGET_TBT_MS = 100;
/** Issue 28: a page answers input within this long after its first contentful paint, at CPU 4×. */
const TARGET_ANSWERS_AFTER_FCP_MS = 300;
const CPU_SLOWDOWN = 4;
/**
 * Loads per page for the take-over figures: five gave medians 100–200 ms apart from one round to the
 * next on the signed-in page at CPU 4× (docs/performance.md, run 5), and eleven still 245–380 ms over
 * three runs of the same code (runs 15–17), against a target of 300 ms.
 */
const TAKE_OVER_LOADS = 21;
/** Enough for a full first page of the application grid. */
const APPLICATIONS = 30;
/** The diagnostics printed per portal page, largest estimated saving first. */
const BIGGEST_COSTS_SHOWN = 4;
/** A run whose trace Lighthouse could not record (it happens now and then) is made again, once. */
const ATTEMPTS_PER_RUN = 2;

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = path.resolve(BENCH_DIR, '../../..');
const WEB_ROOT = path.join(REPO_ROOT, 'apps/web');
const FLOOR_ROOT = path.join(BENCH_DIR, 'floor');
const PRECOMPRESS_SCRIPT = path.join(WEB_ROOT, 'scripts/precompress.mjs');

interface PageUnderTest {
  label: string;
  url: string;
  /** Request headers for every request of the page: the signed-in page's session cookie. */
  extraHeaders?: Record<string, string>;
}

interface RunFigures {
  score: number;
  lcpMs: number;
  tbtMs: number;
  /** Lighthouse's time to interactive (simulated), outside its score since Lighthouse 10. */
  ttiMs: number;
  /** Bytes of JavaScript over the wire (compressed), from the network-requests audit. */
  scriptBytes: number;
  scriptRequests: number;
}

interface PageRuns {
  page: PageUnderTest;
  runs: RunFigures[];
  reports: Result[];
}

function requireChromium() {
  if (!chromiumAvailable) {
    console.error(
      `Chromium was not found at ${CHROMIUM_PATH} (apt-get install -y chromium); the web benchmark needs it.`,
    );
    process.exit(1);
  }
}

function precompress(dir: string) {
  // The script reports on stdout; the bench keeps stdout for its figures.
  execFileSync(process.execPath, [PRECOMPRESS_SCRIPT, dir], { stdio: ['ignore', 2, 2] });
}

/** apps/web with its own Vite configuration, into `outDir`, and its server render beside it. */
async function buildPortalWeb(outDir: string) {
  await build({ root: WEB_ROOT, build: { outDir, emptyOutDir: true }, logLevel: 'warn' });
  await build({
    root: WEB_ROOT,
    build: { ssr: true, outDir: serverRenderDir(outDir), emptyOutDir: true },
    logLevel: 'warn',
  });
  precompress(outDir);
}

/** Both floor pages: drawn by its script (index.html), and served rendered then hydrated (hydrate.html). */
async function buildFloor(outDir: string) {
  // One build each, so that each page's script is one file, React included, as it always was.
  for (const [index, page] of ['index.html', 'hydrate.html'].entries())
    await build({
      root: FLOOR_ROOT,
      configFile: false,
      plugins: [react()],
      build: { outDir, emptyOutDir: index === 0, rollupOptions: { input: path.join(FLOOR_ROOT, page) } },
      logLevel: 'warn',
    });
  const renderDir = `${outDir}-render`;
  await build({
    root: FLOOR_ROOT,
    configFile: false,
    plugins: [react()],
    ssr: { noExternal: true },
    build: { ssr: 'render.tsx', outDir: renderDir, emptyOutDir: true },
    logLevel: 'warn',
  });
  const { renderFloorPage } = (await import(pathToFileURL(path.join(renderDir, 'render.js')).href)) as {
    renderFloorPage: () => string;
  };
  const hydratePage = path.join(outDir, 'hydrate.html');
  fs.writeFileSync(hydratePage, fs.readFileSync(hydratePage, 'utf8').replace('<!--floor-page-->', renderFloorPage()));
  precompress(outDir);
}

async function serveFloor(dir: string) {
  const server = Fastify();
  await server.register(fastifyStatic, { root: dir, preCompressed: true });
  return { server, base: await server.listen({ port: 0, host: '127.0.0.1' }) };
}

function scripts(report: Result) {
  const details = report.audits['network-requests']?.details;
  if (details?.type !== 'table') throw new Error('Lighthouse gave no network-requests table');
  const requests = details.items.filter((item) => item.resourceType === 'Script');
  return {
    scriptRequests: requests.length,
    scriptBytes: requests.reduce((sum, item) => sum + Number(item.transferSize ?? 0), 0),
  };
}

function numericAudit(report: Result, id: string): number {
  const value = report.audits[id]?.numericValue;
  if (value === undefined)
    throw new Error(`Lighthouse gave no ${id}: ${report.audits[id]?.errorMessage ?? 'no audit'}`);
  return value;
}

/** One Lighthouse run of `page` in a Chromium of its own. */
async function lighthouseReport(page: PageUnderTest, method: ThrottlingMethod): Promise<Result> {
  for (let attempt = 1; ; attempt += 1) {
    const chrome = await launch({
      chromePath: CHROMIUM_PATH,
      chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
      logLevel: 'silent',
    });
    try {
      const flags = {
        port: chrome.port,
        logLevel: 'error' as const,
        onlyCategories: ['performance'],
        throttlingMethod: method,
        extraHeaders: page.extraHeaders,
      };
      const report = (await lighthouse(page.url, flags))?.lhr;
      if (!report) throw new Error(`Lighthouse returned nothing for ${page.url}`);
      if (!report.runtimeError) return report;
      const failure = `Lighthouse on ${page.url}: ${report.runtimeError.code} ${report.runtimeError.message}`;
      if (attempt === ATTEMPTS_PER_RUN) throw new Error(failure);
      console.error(`${failure}; running it again`);
    } finally {
      chrome.kill();
    }
  }
}

/** Set to a directory to keep every run's Lighthouse report (JSON) there, to look into. */
const REPORT_DIR = process.env.BENCH_WEB_REPORT_DIR;
let reportsWritten = 0;

async function runLighthouse(
  page: PageUnderTest,
  method: ThrottlingMethod,
): Promise<{ figures: RunFigures; report: Result }> {
  const report = await lighthouseReport(page, method);
  if (REPORT_DIR) {
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    reportsWritten += 1;
    const name = `${String(reportsWritten).padStart(2, '0')}-${method}-${page.label.replace(/[^a-z0-9]+/gi, '-')}.json`;
    fs.writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(report));
  }
  // A signed-in page that sent the browser to /login would be measuring the wrong page.
  const landedOn = new URL(report.finalDisplayedUrl).pathname;
  if (landedOn !== new URL(page.url).pathname) throw new Error(`${page.url} ended on ${landedOn}`);
  for (const warning of report.runWarnings)
    console.error(`  Lighthouse warning on ${page.label}: ${warning}`);
  const score = report.categories.performance?.score;
  if (score === null || score === undefined)
    throw new Error(`Lighthouse gave no performance score for ${page.url}`);
  return {
    report,
    figures: {
      score: Math.round(score * 100),
      lcpMs: numericAudit(report, 'largest-contentful-paint'),
      tbtMs: numericAudit(report, 'total-blocking-time'),
      ttiMs: numericAudit(report, 'interactive'),
      ...scripts(report),
    },
  };
}

/** Rounds of one Lighthouse run per page in turn. */
async function measure(pages: PageUnderTest[], method: ThrottlingMethod): Promise<PageRuns[]> {
  const measured = pages.map((page): PageRuns => ({ page, runs: [], reports: [] }));
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const entry of measured) {
      const { figures, report } = await runLighthouse(entry.page, method);
      entry.runs.push(figures);
      entry.reports.push(report);
      console.error(
        `${method} round ${round}/${ROUNDS} ${entry.page.label}: score ${figures.score}, LCP ${figures.lcpMs.toFixed(0)} ms, ` +
          `TBT ${figures.tbtMs.toFixed(0)} ms, JS ${kB(figures.scriptBytes)} kB in ${figures.scriptRequests} requests`,
      );
    }
  }
  return measured;
}

/** The function the page calls once it is taken over. */
const TAKEN_OVER_BINDING = 'portalTakenOver';

/** What the page records of its own load, read back once it has been taken over. */
interface TakeOverRecord {
  firstContentfulPaint?: number;
  hydratedAt?: number;
  longTasks: Array<[start: number, end: number]>;
}

/**
 * Runs in the page before any of its own scripts: notes the first contentful paint, the moment
 * `<html data-hydrated>` appears (apps/web/src/app/router.tsx) and every long task, on the page's clock,
 * and calls `bindingName` at the take-over.
 */
function recordTakeOver(bindingName: string) {
  const record: TakeOverRecord = { longTasks: [] };
  (window as unknown as { portalTakeOver: TakeOverRecord }).portalTakeOver = record;
  new PerformanceObserver((entries) => {
    const paint = entries.getEntriesByName('first-contentful-paint')[0];
    if (paint) record.firstContentfulPaint = paint.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((entries) => {
    for (const task of entries.getEntries())
      record.longTasks.push([task.startTime, task.startTime + task.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_changes, observer) => {
    if (!document.documentElement.hasAttribute('data-hydrated')) return;
    record.hydratedAt = performance.now();
    observer.disconnect();
    (window as unknown as Record<string, () => void>)[bindingName]!();
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-hydrated'] });
}

/**
 * When the page answers input: its take-over, or the end of the long task running then (the one
 * that hydrates it, and any that follows without a break), since input waits for the main thread.
 */
function answersInputAt({ hydratedAt, longTasks }: TakeOverRecord): number {
  let answersAt = hydratedAt!;
  for (const [start, end] of [...longTasks].sort((a, b) => a[0] - b[0]))
    if (start <= answersAt && end > answersAt) answersAt = end;
  return answersAt;
}

interface TakeOverFigures {
  firstContentfulPaintMs: number;
  answersInputMs: number;
}

const gapMs = (load: TakeOverFigures) => load.answersInputMs - load.firstContentfulPaintMs;

/** One load of `page` with a cold cache at CPU_SLOWDOWN: its first paint and when it answers input. */
async function loadUntilTakenOver(browser: Browser, page: PageUnderTest): Promise<TakeOverFigures> {
  const context = await browser.newContext({ extraHTTPHeaders: page.extraHeaders });
  try {
    const tab = await context.newPage();
    // The page says when it is taken over through a binding rather than being polled: Playwright's
    // polling injects its own script into the page, which at CPU 4× costs a long task of its own in
    // the middle of the take-over being measured.
    let takenOver!: () => void;
    const whenTakenOver = new Promise<void>((resolve) => (takenOver = resolve));
    await tab.exposeBinding(TAKEN_OVER_BINDING, () => takenOver());
    await tab.addInitScript(recordTakeOver, TAKEN_OVER_BINDING);
    const devtools = await context.newCDPSession(tab);
    await devtools.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await tab.goto(page.url);
    await whenTakenOver;
    // Long tasks are reported after they end: the last ones are in once the page has gone quiet.
    await tab.waitForLoadState('networkidle');
    const record = await tab.evaluate(
      () => (window as unknown as { portalTakeOver: TakeOverRecord }).portalTakeOver,
    );
    if (record.firstContentfulPaint === undefined) throw new Error(`${page.url} reported no first contentful paint`);
    return { firstContentfulPaintMs: record.firstContentfulPaint, answersInputMs: answersInputAt(record) };
  } finally {
    await context.close();
  }
}

/** TAKE_OVER_LOADS loads of each page, the pages in turn as for Lighthouse. */
async function measureTakeOver(pages: PageUnderTest[]): Promise<Map<PageUnderTest, TakeOverFigures[]>> {
  const loads = new Map(pages.map((page) => [page, [] as TakeOverFigures[]]));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    for (let round = 1; round <= TAKE_OVER_LOADS; round += 1)
      for (const page of pages) {
        const figures = await loadUntilTakenOver(browser, page);
        loads.get(page)!.push(figures);
        console.error(
          `load ${round}/${TAKE_OVER_LOADS} ${page.label} at CPU ${CPU_SLOWDOWN}×: first contentful paint ` +
            `${figures.firstContentfulPaintMs.toFixed(0)} ms, answers input ${figures.answersInputMs.toFixed(0)} ms`,
        );
      }
  } finally {
    await browser.close();
  }
  return loads;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function kB(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

function medians(runs: RunFigures[]): RunFigures {
  return {
    score: median(runs.map((r) => r.score)),
    lcpMs: median(runs.map((r) => r.lcpMs)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    ttiMs: median(runs.map((r) => r.ttiMs)),
    scriptBytes: median(runs.map((r) => r.scriptBytes)),
    scriptRequests: median(runs.map((r) => r.scriptRequests)),
  };
}

/** The largest contentful paint's element and how its time splits (TTFB, load delay, load time, render delay). */
function lcpBreakdown(report: Result): string {
  const details = report.audits['largest-contentful-paint-element']?.details;
  if (details?.type !== 'list') return 'no LCP element reported';
  const [elementTable, phaseTable] = details.items;
  const element = elementTable?.type === 'table' ? elementTable.items[0]?.node : undefined;
  const label =
    element && typeof element === 'object' && 'nodeLabel' in element ? `"${element.nodeLabel}"` : 'unknown';
  const phases =
    phaseTable?.type === 'table'
      ? phaseTable.items.map((item) => `${String(item.phase)} ${Number(item.timing).toFixed(0)} ms`)
      : [];
  return `LCP element ${label}: ${phases.join(', ')}`;
}

/**
 * The diagnostics that the report lists as failed, by the largest saving Lighthouse estimates on
 * any metric (the LCP element's own entry is lcpBreakdown's).
 */
function biggestCosts(report: Result): string[] {
  const savings = (audit: Result['audits'][string]) =>
    Math.max(0, ...Object.values(audit.metricSavings ?? {}).map(Number));
  return (report.categories.performance?.auditRefs ?? [])
    .filter((ref) => ref.group === 'diagnostics' && ref.id !== 'largest-contentful-paint-element')
    .flatMap((ref) => report.audits[ref.id] ?? [])
    .filter((audit) => audit.score !== null && audit.score < 0.9 && savings(audit) > 0)
    .sort((a, b) => savings(b) - savings(a))
    .slice(0, BIGGEST_COSTS_SHOWN)
    .map((audit) => {
      const metrics = Object.entries(audit.metricSavings ?? {})
        .filter(([, ms]) => Number(ms) > 0)
        .map(([metric, ms]) => `${metric} ${Number(ms).toFixed(0)} ms`)
        .join(', ');
      return `${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}: ${metrics}`;
    });
}

function medianScoreReport({ runs, reports }: PageRuns): Result {
  const middleScore = median(runs.map((r) => r.score));
  return reports[runs.findIndex((r) => r.score === middleScore)] ?? reports[0]!;
}

/** Lighthouse's figures for every page under one throttling method. */
interface MethodRuns {
  method: ThrottlingMethod;
  measured: PageRuns[];
}

/** One target line; answers whether it was met. */
function target(met: boolean, text: string): boolean {
  console.log(`${met ? 'met   ' : 'MISSED'} ${text}`);
  return met;
}

const cell = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');

/** The table of one method's runs, its diagnostics and its target lines; answers whether all were met. */
function printLighthouse({ method, measured }: MethodRuns): boolean {
  const [floor, ...portalPages] = measured;
  if (!floor) throw new Error('nothing was measured');
  const floorLcpMs = medians(floor.runs).lcpMs;

  console.log(
    `\nLighthouse, throttling ${method}${method === JUDGED_METHOD ? ' (the targets are judged on it)' : ''}\n`,
  );
  console.log(
    '| page | score | LCP ms | LCP / floor | TBT ms | TTI ms | JS kB transferred | JS requests | runs: score; LCP ms; TBT ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { page, runs } of measured) {
    const m = medians(runs);
    console.log(
      `| ${page.label} | ${m.score.toFixed(0)} | ${m.lcpMs.toFixed(0)} | ${(m.lcpMs / floorLcpMs).toFixed(2)} | ` +
        `${m.tbtMs.toFixed(0)} | ${m.ttiMs.toFixed(0)} | ${kB(m.scriptBytes)} | ${m.scriptRequests.toFixed(0)} | ${cell(runs.map((r) => r.score))}; ` +
        `${cell(runs.map((r) => r.lcpMs))}; ${cell(runs.map((r) => r.tbtMs))} |`,
    );
  }

  for (const entry of portalPages) {
    const report = medianScoreReport(entry);
    console.log(`\n${entry.page.label}, the run with the median score:`);
    for (const line of [lcpBreakdown(report), ...biggestCosts(report)]) console.log(`  ${line}`);
  }

  console.log('');
  const met: boolean[] = [];
  for (const { page, runs } of portalPages) {
    const m = medians(runs);
    met.push(
      target(
        m.score >= TARGET_SCORE,
        `${method}: ${page.label} performance score ${m.score.toFixed(0)} ≥ ${TARGET_SCORE}`,
      ),
    );
    met.push(
      target(
        m.lcpMs <= TARGET_LCP_RATIO_TO_FLOOR * floorLcpMs,
        `${method}: ${page.label} LCP ${m.lcpMs.toFixed(0)} ms ≤ ${TARGET_LCP_RATIO_TO_FLOOR} × floor ${floorLcpMs.toFixed(0)} ms = ` +
          `${(TARGET_LCP_RATIO_TO_FLOOR * floorLcpMs).toFixed(0)} ms`,
      ),
    );
    met.push(
      target(
        m.tbtMs <= TARGET_TBT_MS,
        `${method}: ${page.label} TBT ${m.tbtMs.toFixed(0)} ms ≤ ${TARGET_TBT_MS} ms`,
      ),
    );
  }
  return met.every(Boolean);
}

/**
 * The take-over table and the portal pages' target lines; answers whether all were met. The first
 * page measured is the floor page served rendered: its gap is the least any React page taken over
 * so needs on this machine, and each portal page's gap is also given as a multiple of it.
 */
function printTakeOver(takeOver: Map<PageUnderTest, TakeOverFigures[]>, floorTtiMs: number): boolean {
  console.log(
    `\nFirst contentful paint to answering input, Chromium at CPU ${CPU_SLOWDOWN}×, cold cache, median of ` +
      `${TAKE_OVER_LOADS} loads; the floor page's time to interactive (Lighthouse, ${JUDGED_METHOD}) ${floorTtiMs.toFixed(0)} ms\n`,
  );
  console.log('| page | first contentful paint ms | answers input ms | gap ms | gap / floor\'s | loads: gap ms |');
  console.log('|---|---|---|---|---|---|');
  const gaps = new Map<PageUnderTest, number>();
  for (const [page, loads] of takeOver) gaps.set(page, median(loads.map(gapMs)));
  const [floor, ...portalPages] = takeOver.keys();
  const floorGap = gaps.get(floor!)!;
  for (const [page, loads] of takeOver) {
    console.log(
      `| ${page.label} | ${median(loads.map((load) => load.firstContentfulPaintMs)).toFixed(0)} | ` +
        `${median(loads.map((load) => load.answersInputMs)).toFixed(0)} | ${gaps.get(page)!.toFixed(0)} | ` +
        `${(gaps.get(page)! / floorGap).toFixed(2)} | ${cell(loads.map(gapMs))} |`,
    );
  }
  console.log('');
  const met = portalPages.map((page) =>
    target(
      gaps.get(page)! <= TARGET_ANSWERS_AFTER_FCP_MS,
      `${page.label} answers input ${gaps.get(page)!.toFixed(0)} ms after its first contentful paint ≤ ${TARGET_ANSWERS_AFTER_FCP_MS} ms`,
    ),
  );
  return met.every(Boolean);
}

/** Every table and target line; answers whether the judged targets were all met. */
function printReport(
  lighthouseRuns: MethodRuns[],
  takeOver: Map<PageUnderTest, TakeOverFigures[]>,
  header: string,
): boolean {
  console.log(`\n${header}`);
  let judgedMet = true;
  for (const runs of lighthouseRuns) {
    const met = printLighthouse(runs);
    if (runs.method === JUDGED_METHOD) judgedMet = met;
  }
  const judged = lighthouseRuns.find((runs) => runs.method === JUDGED_METHOD)!;
  const takeOverMet = printTakeOver(takeOver, medians(judged.measured[0]!.runs).ttiMs);
  return judgedMet && takeOverMet;
}

async function main() {
  requireChromium();
  const loadBefore = os.loadavg()[0] ?? 0;
  const started = performance.now();
  const buildsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-bench-web-'));
  try {
    const portalWebDir = path.join(buildsDir, 'portal');
    const floorDir = path.join(buildsDir, 'floor');
    console.error('building the portal web app and the floor page');
    await buildPortalWeb(portalWebDir);
    await buildFloor(floorDir);

    const floor = await serveFloor(floorDir);
    try {
      const { databaseKind, lighthouseRuns, takeOver } = await withFreshPortal(
        process.env.DATABASE_URL,
        async ({ databaseKind, database, base }) => {
          const email = 'bench-web@acme.io';
          const cookie = await signedInOwner(base, email);
          await seedApplications(database, email, APPLICATIONS);
          const portalPages: PageUnderTest[] = [
            { label: '/login', url: `${base}/login` },
            { label: '/signup', url: `${base}/signup` },
            { label: '/apps/asc (signed in)', url: `${base}/apps/asc`, extraHeaders: { Cookie: cookie } },
          ];
          const pages = [{ label: 'floor page', url: `${floor.base}/` }, ...portalPages];
          console.error(
            `${databaseKind}: Lighthouse, ${ROUNDS} rounds over ${pages.length} pages for each throttling method`,
          );
          const lighthouseRuns: MethodRuns[] = [];
          for (const method of THROTTLING_METHODS)
            lighthouseRuns.push({ method, measured: await measure(pages, method) });
          console.error(`the served floor page and the portal's pages at CPU ${CPU_SLOWDOWN}×, ${TAKE_OVER_LOADS} loads each`);
          const takeOver = await measureTakeOver([
            { label: 'floor page, server-rendered', url: `${floor.base}/hydrate.html` },
            ...portalPages,
          ]);
          return { databaseKind, lighthouseRuns, takeOver };
        },
        { WEB_DIST_DIR: portalWebDir },
      );

      const { lighthouseVersion, environment } = lighthouseRuns[0]!.measured[0]!.reports[0]!;
      const chromiumVersion = execFileSync(CHROMIUM_PATH, ['--version'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).match(/[\d.]+/)?.[0];
      const header =
        `Lighthouse ${lighthouseVersion}, mobile (throttling ${THROTTLING_METHODS.join(' and ')}), median of ${ROUNDS} runs each, ` +
        `Chromium ${chromiumVersion}, ${databaseKind}, ` +
        `${new Date().toISOString().slice(0, 10)}, load average ${loadBefore.toFixed(2)} before the run and ` +
        `${(os.loadavg()[0] ?? 0).toFixed(2)} after, ` +
        `Lighthouse benchmark index ${environment.benchmarkIndex.toFixed(0)}, ` +
        `${((performance.now() - started) / 1000).toFixed(0)} s`;
      if (!printReport(lighthouseRuns, takeOver, header)) process.exitCode = 1;
    } finally {
      await floor.server.close();
    }
  } finally {
    fs.rmSync(buildsDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

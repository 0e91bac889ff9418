// Loaded with `node --import` before the portal: the process's wall clock starts at the instant in
// E2E_PORTAL_CLOCK (ISO 8601) and runs on from there at the normal pace. Everything that reads the
// time through Date (the portal, its embedded regions, PGlite's now()) sees the same clock, so a
// browser test can let a month end without waiting for it. Timers and monotonic clocks are untouched.
const start = Date.parse(process.env.E2E_PORTAL_CLOCK ?? '');
if (Number.isNaN(start))
  throw new Error(`E2E_PORTAL_CLOCK is not an instant: ${process.env.E2E_PORTAL_CLOCK}`);

const RealDate = Date;
const offsetMs = start - RealDate.now();
const now = () => RealDate.now() + offsetMs;

function PortalDate(...args) {
  // Called without new, Date answers the current time as text.
  if (new.target === undefined) return new RealDate(now()).toString();
  return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
}
Object.setPrototypeOf(PortalDate, RealDate);
PortalDate.prototype = RealDate.prototype;
PortalDate.now = now;

globalThis.Date = PortalDate;

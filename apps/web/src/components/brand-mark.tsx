/**
 * The portal's mark, drawn inline: an image file would be one more request before the first page is
 * complete. public/favicon.png is this drawing at 32 × 32 pixels, a bitmap because a browser loads an
 * SVG icon as a document of its own on the page's main thread, which Chromium did at CPU 4× in the
 * middle of the take-over (decision 045, seventh part).
 */
export function BrandMark({ size }: { size: number }) {
  return (
    <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden focusable="false">
      <rect width="64" height="64" rx="14" fill="#364fc7" />
      <path
        d="M18 22a6 6 0 0 1 6-6h16a6 6 0 0 1 6 6v12a6 6 0 0 1-6 6H30l-8 7v-7h0a4 4 0 0 1-4-4z"
        fill="#fff"
      />
      <circle cx="26" cy="28" r="2.5" fill="#364fc7" />
      <circle cx="32" cy="28" r="2.5" fill="#364fc7" />
      <circle cx="38" cy="28" r="2.5" fill="#364fc7" />
    </svg>
  );
}

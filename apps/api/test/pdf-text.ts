import zlib from 'node:zlib';

/**
 * Reads back the text of a PDF that pdfkit wrote with `compress: false`. Text in an embedded font is
 * written as glyph numbers of the font's subset, so each font's ToUnicode map (a `beginbfrange`
 * table of `<first> <last> [<utf-16> …]`) turns them back into characters. Each text-showing
 * operation becomes one line of the answer; a glyph the font lacks reads as U+0000.
 */

type GlyphMap = Map<number, string>;

function objectBodies(source: string): Map<string, string> {
  const bodies = new Map<string, string>();
  for (const [, id, body] of source.matchAll(/(\d+) 0 obj\s([\s\S]*?)\sendobj/g)) bodies.set(id!, body!);
  return bodies;
}

function utf16(hex: string): string {
  const units = hex.replace(/\s+/g, '').match(/.{4}/g) ?? [];
  return String.fromCharCode(...units.map((unit) => parseInt(unit, 16)));
}

function glyphMap(cmap: string): GlyphMap {
  const glyphs: GlyphMap = new Map();
  for (const [, first, targets] of cmap.matchAll(/<([0-9a-f]+)> <[0-9a-f]+> \[([^\]]*)\]/gi)) {
    [...targets!.matchAll(/<([0-9a-f\s]*)>/gi)].forEach(([, hex], i) =>
      glyphs.set(parseInt(first!, 16) + i, utf16(hex!)),
    );
  }
  return glyphs;
}

/** Font resource names (F1, F2, …) with the glyph map of the font each one names. */
function fontGlyphMaps(bodies: Map<string, string>): Map<string, GlyphMap> {
  const fonts = new Map<string, GlyphMap>();
  for (const body of bodies.values()) {
    for (const [, entries] of body.matchAll(/\/Font\s*<<([^>]*)>>/g)) {
      for (const [, name, fontId] of entries!.matchAll(/\/(\w+)\s+(\d+) 0 R/g)) {
        const cmapId = /\/ToUnicode (\d+) 0 R/.exec(bodies.get(fontId!) ?? '')?.[1];
        if (cmapId) fonts.set(name!, glyphMap(bodies.get(cmapId) ?? ''));
      }
    }
  }
  return fonts;
}

/** A PDF as pdfkit writes it by default (deflated streams) made readable by pdfText. */
export function inflateStreams(pdf: Buffer): Buffer {
  const source = pdf.toString('latin1').replace(/stream\n([\s\S]*?)\nendstream/g, (whole, data: string) => {
    try {
      return `stream\n${zlib.inflateSync(Buffer.from(data, 'latin1')).toString('latin1')}\nendstream`;
    } catch {
      // Not deflated: left as it is.
      return whole;
    }
  });
  return Buffer.from(source, 'latin1');
}

export function pdfText(pdf: Buffer): string {
  const source = pdf.toString('latin1');
  const fonts = fontGlyphMaps(objectBodies(source));
  let glyphs: GlyphMap = new Map();
  const lines: string[] = [];
  for (const [, fontName, shown] of source.matchAll(
    /\/(\w+) [\d.]+ Tf|\[((?:<[0-9a-f]*>|[\s\d.-])*)\] TJ/gi,
  )) {
    if (fontName) glyphs = fonts.get(fontName) ?? new Map();
    else {
      const codes = [...shown!.matchAll(/<([0-9a-f]*)>/gi)].flatMap(([, hex]) => hex!.match(/.{4}/g) ?? []);
      lines.push(codes.map((code) => glyphs.get(parseInt(code, 16)) ?? '\u0000').join(''));
    }
  }
  return lines.join('\n');
}

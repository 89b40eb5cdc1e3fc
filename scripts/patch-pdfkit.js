// postinstall: PDFKit 0.20.2 (the latest) builds a standard font's metrics afresh for every document: each
// `doc.font('Helvetica')` turns the font's packed data into a table of widths and one of ~1,200 kerning pairs. For a
// receipt, a one-page document in two fonts, that was half of the CPU of making its PDF (a profile of the receipts
// benchmark: 12% of the service's time in that constructor alone). The tables are read, never written, once built;
// this keeps one per font data (which PDFKit itself loads once per process) and gives it to every document, which
// produces the same bytes (test/receipts/pdf-fonts.test.ts).
import { applyExactEdits } from './exact-edits.js';

/** The same change in the ES module build (what the service imports) and the CommonJS one. */
const EDITS = ['js/pdfkit.node.mjs', 'js/pdfkit.js'].map((file) => [
  file,
  'class StandardFont extends PDFFont {\n  constructor(document, fontData, id) {\n    super();\n    this.document = document;\n    this.name = fontData.name;\n    this.id = id;\n    this.font = new AFMFont(fontData);',
  'const AFM_FONTS = new WeakMap();\nclass StandardFont extends PDFFont {\n  constructor(document, fontData, id) {\n    super();\n    this.document = document;\n    this.name = fontData.name;\n    this.id = id;\n    this.font = AFM_FONTS.get(fontData);\n    if (!this.font) AFM_FONTS.set(fontData, (this.font = new AFMFont(fontData)));',
]);

applyExactEdits('scripts/patch-pdfkit.js', 'pdfkit', '0.20.2', EDITS);

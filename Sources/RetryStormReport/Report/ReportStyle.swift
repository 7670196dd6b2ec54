/// The report's only stylesheet, inline: system fonts, no external resources, readable on screen
/// and on paper.
///
/// Nothing may be wider than the page: every box is sized border-box; tables take the page's
/// width and shrink by wrapping (labels at spaces, anything at all as a last resort) rather than
/// scroll, so no column is hidden in print; charts scale to the width; preformatted text wraps.
/// A point's name breaks at its hyphens before anywhere else ("rudderstack-|mobile", not
/// "rudderstac|k-mobile"): the numbers' columns give way first.
enum ReportStyle {
    static let css = """
        *, *::before, *::after { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; }
        body { margin: 0; background: #f4f4f4; color: #1a1a1a;
          font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; }
        main { max-width: 1040px; margin: 0 auto; padding: 20px 24px 40px; background: #ffffff; }
        header { margin-bottom: 4px; }
        .kind { margin: 0; color: #5c5c5c; font-size: 13px; letter-spacing: 0.02em; }
        h1 { font-size: 26px; line-height: 1.2; margin: 2px 0 6px; overflow-wrap: anywhere; }
        h2 { font-size: 19px; margin: 28px 0 8px; border-bottom: 1px solid #dcdcdc; padding-bottom: 3px; }
        h3 { font-size: 16px; margin: 20px 0 6px; }
        .verdict h2:first-child { margin-top: 14px; }
        .question { font-size: 18px; color: #1a1a1a; margin: 4px 0 0; font-weight: 500; }
        .findings { margin: 0; padding-left: 22px; }
        .findings li { margin: 3px 0; }
        .recommendation { font-size: 17px; font-weight: 600; margin: 4px 0 8px; overflow-wrap: anywhere; }
        .note { color: #555555; font-size: 13px; margin: 6px 0 0; }
        .warning { border-left: 4px solid #b35900; background: #fff4e5; padding: 6px 10px; margin: 8px 0; }
        .pass { color: #1e6b34; font-weight: 600; }
        .fail { color: #b00020; font-weight: 700; }
        .noise { color: #8a5a00; font-weight: 600; }
        .verdict-fail { color: #b00020; font-weight: 600; }
        .table { max-width: 100%; margin: 6px 0 2px; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; font-size: 14px; }
        th, td { padding: 4px 8px; border-bottom: 1px solid #e3e3e3; text-align: right; vertical-align: top;
          overflow-wrap: anywhere; }
        thead th { border-bottom: 2px solid #8c8c8c; font-weight: 600; vertical-align: bottom; overflow-wrap: normal; }
        th.label, th[scope=row] { text-align: left; }
        th[scope=row] { font-weight: normal; color: #1a1a1a; overflow-wrap: break-word; }
        table.gates td, table.gates th, table.recommend th[scope=row], table.laws td:nth-child(2), table.laws th:nth-child(2) { text-align: left; }
        .unit { display: block; font-weight: normal; color: #555555; font-size: 12px; }
        td.best { font-weight: 600; background: #eaf4ed; }
        .star { color: #1a1a1a; margin-right: 3px; }
        .ci { display: block; color: #555555; font-size: 12px; font-weight: normal; }
        figure { margin: 16px 0 24px; }
        figure svg { display: block; width: 100%; height: auto; max-width: 100%; }
        figcaption { color: #333333; font-size: 14px; margin-top: 4px; }
        figcaption .file { color: #6b6b6b; font-size: 12px; }
        pre { background: #f4f4f4; padding: 10px 12px; font-size: 13px; line-height: 1.4;
          white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
        pre.command { font-size: 14px; }
        .facts { display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 8px 0; padding: 0; }
        .facts div { display: flex; gap: 6px; min-width: 0; }
        .facts dt { font-weight: 600; }
        .facts dd { margin: 0; overflow-wrap: anywhere; }
        footer { margin-top: 28px; color: #555555; font-size: 13px; }
        @media (max-width: 700px) {
          main { padding: 12px 12px 32px; }
          table { font-size: 13px; }
          th, td { padding: 3px 5px; }
        }
        @media print {
          @page { margin: 14mm 12mm; }
          body { background: #ffffff; font-size: 11pt; }
          main { max-width: none; padding: 0; }
          table { font-size: 9pt; }
          th, td { padding: 2px 5px; }
          .ci, .unit { font-size: 8pt; }
          h2, h3 { break-after: avoid; }
          figure, tr { break-inside: avoid; }
          td.best { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
        }
        """
}

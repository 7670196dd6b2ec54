import RetryStormResults
import RetryStormScenario
/// The report's only stylesheet, inline: system fonts, no external resources, readable on screen
/// and on paper.
enum ReportStyle {
    static let css = """
        body { margin: 0; background: #f7f7f7; color: #1a1a1a;
          font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; }
        main { max-width: 1000px; margin: 0 auto; padding: 24px 20px 48px; background: #ffffff; }
        h1 { font-size: 26px; margin: 0 0 4px; }
        h2 { font-size: 19px; margin: 32px 0 8px; border-bottom: 1px solid #e0e0e0; padding-bottom: 4px; }
        .question { font-size: 17px; color: #333333; margin: 6px 0 14px; }
        .facts { display: flex; flex-wrap: wrap; gap: 4px 24px; margin: 0; padding: 0; color: #5c5c5c; }
        .facts div { display: flex; gap: 6px; }
        .facts dt { font-weight: 600; color: #333333; }
        .facts dd { margin: 0; }
        .note { color: #5c5c5c; font-size: 13px; margin: 6px 0 0; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
        th, td { padding: 5px 10px; border-bottom: 1px solid #e6e6e6; text-align: right; vertical-align: top; }
        thead th { border-bottom: 2px solid #8c8c8c; white-space: nowrap; }
        th[scope=row], th.label { text-align: left; }
        th[scope=row] { font-weight: normal; color: #333333; }
        td.best { font-weight: 600; background: #eef6f1; }
        .star { color: #1a1a1a; }
        .ci { display: block; color: #5c5c5c; font-size: 12px; font-weight: normal; white-space: nowrap; }
        figure { margin: 18px 0 26px; }
        figure svg { display: block; width: 100%; height: auto; max-width: 960px; }
        figcaption { color: #5c5c5c; font-size: 13px; }
        pre { background: #f4f4f4; padding: 12px; overflow-x: auto; font-size: 13px; line-height: 1.4; }
        footer { margin-top: 32px; color: #5c5c5c; font-size: 13px; }
        @media print {
          body { background: #ffffff; } main { max-width: none; padding: 0; }
          table { font-size: 11px; } th, td { padding: 3px 5px; } figure { break-inside: avoid; }
          pre { white-space: pre-wrap; }
        }
        """
}

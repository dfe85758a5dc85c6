import Foundation

/// A bar chart drawn on the server as SVG (no script): one group of bars per category, one bar per
/// series, each bar with its own tooltip; a title that names the chart for screen readers. Pages
/// print the same numbers in a table next to it.
struct BarChart {
    struct Series {
        let cssClass: String
        let color: String
    }

    static let axisColor = "#888888"

    /// The `<title>` element's id: unique on its page.
    let id: String
    let cssClass: String
    let title: String
    let series: [Series]
    /// One per category: its axis label, its values (one per series) and their tooltips.
    let labels: [String]
    let values: [[Int]]
    let tooltips: [[String]]
    var width = 720.0
    var height = 240.0
    /// At most about this many labels are written on the axis.
    var labelCount = 6

    var svg: String {
        let left = 44.0
        let bottom = 28.0
        let top = 12.0
        let plotHeight = height - bottom - top
        let peak = max(values.flatMap { $0 }.max() ?? 0, 1)
        let slot = (width - left - 8) / Double(max(labels.count, 1))
        let bar = max(slot * 0.81 / Double(max(series.count, 1)), 1)
        func y(_ value: Int) -> Double { top + plotHeight - plotHeight * Double(value) / Double(peak) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        var parts = [
            #"<svg class="\#(cssClass)" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(Int(width)) \#(Int(height))" role="img" aria-labelledby="\#(id)">"#,
            "<title id=\"\(id)\">\(UTF8HTMLEscaping.escape(title))</title>",
            #"<line x1="\#(left)" y1="\#(number(top + plotHeight))" x2="\#(width - 8)" y2="\#(number(top + plotHeight))" stroke="\#(Self.axisColor)"/>"#,
            #"<text x="\#(left - 6)" y="\#(number(top + 10))" font-size="11" text-anchor="end" fill="currentColor">\#(peak)</text>"#,
            #"<text x="\#(left - 6)" y="\#(number(top + plotHeight))" font-size="11" text-anchor="end" fill="currentColor">0</text>"#,
        ]
        for (index, row) in values.enumerated() {
            let x = left + Double(index) * slot + slot * 0.1
            for (position, (value, style)) in zip(row, series).enumerated() {
                let tip = UTF8HTMLEscaping.escape(tooltips[index][position])
                parts.append(
                    #"<rect class="\#(style.cssClass)" x="\#(number(x + Double(position) * bar))" y="\#(number(y(value)))" width="\#(number(bar))" height="\#(number(top + plotHeight - y(value)))" fill="\#(style.color)"><title>\#(tip)</title></rect>"#
                )
            }
        }
        let labelEvery = max(labels.count / labelCount, 1)
        for (index, label) in labels.enumerated() where index % labelEvery == 0 {
            let x = left + Double(index) * slot + slot / 2
            parts.append(
                #"<text x="\#(number(x))" y="\#(number(height - 8))" font-size="11" text-anchor="middle" fill="currentColor">\#(UTF8HTMLEscaping.escape(label))</text>"#
            )
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }
}

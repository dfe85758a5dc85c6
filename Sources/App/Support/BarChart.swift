import Foundation

/// A bar chart drawn on the server as SVG (no script): one group of bars per category, one bar per
/// series, each bar with its own tooltip; a title that names the chart for screen readers. Pages
/// print the same numbers in a table next to it.
///
/// The chart is as wide as its column and `height` pixels high. Its words are not scaled with it: the
/// bars are drawn in a nested SVG stretched to the width, the labels at 12 px in the outer one, placed
/// by percentage. A narrow screen shows fewer category labels (`chart-label-md` from 600 px,
/// `chart-label-lg` from 900 px, app.css), so that they never run into each other.
struct BarChart {
    struct Series {
        let cssClass: String
        let color: String
    }

    static let axisColor = "#888888"
    static let fontSize = 12.0
    /// The chart's width (px) at the narrowest screen (320 px less the page's margins), from 600 px and from 900 px.
    static let widths = (base: 288.0, medium: 568.0, large: 868.0)

    /// The `<title>` element's id: unique on its page.
    let id: String
    let cssClass: String
    let title: String
    let series: [Series]
    /// One per category: its axis label, its values (one per series) and their tooltips.
    let labels: [String]
    let values: [[Int]]
    let tooltips: [[String]]
    /// The bars' own units across (stretched to the chart's width).
    var width = 720.0
    var height = 240.0
    /// At most about this many labels are written on the axis.
    var labelCount = 6

    var svg: String {
        let top = 24.0
        let bottom = 28.0
        let plotHeight = height - bottom - top
        let peak = max(values.flatMap { $0 }.max() ?? 0, 1)
        let slot = width / Double(max(labels.count, 1))
        let bar = max(slot * 0.8 / Double(max(series.count, 1)), 1)
        func y(_ value: Int) -> Double { plotHeight - plotHeight * Double(value) / Double(peak) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        let baseline = number(top + plotHeight)
        var parts = [
            #"<svg class="\#(cssClass)" xmlns="http://www.w3.org/2000/svg" width="100%" height="\#(Int(height))" role="img" aria-labelledby="\#(id)">"#,
            "<title id=\"\(id)\">\(UTF8HTMLEscaping.escape(title))</title>",
            #"<svg y="\#(number(top))" width="100%" height="\#(number(plotHeight))" viewBox="0 0 \#(Int(width)) \#(number(plotHeight))" preserveAspectRatio="none">"#,
        ]
        for (index, row) in values.enumerated() {
            let x = Double(index) * slot + slot * 0.1
            for (position, (value, style)) in zip(row, series).enumerated() {
                let tip = UTF8HTMLEscaping.escape(tooltips[index][position])
                parts.append(
                    #"<rect class="\#(style.cssClass)" x="\#(number(x + Double(position) * bar))" y="\#(number(y(value)))" width="\#(number(bar))" height="\#(number(plotHeight - y(value)))" fill="\#(style.color)"><title>\#(tip)</title></rect>"#
                )
            }
        }
        parts += [
            "</svg>",
            #"<line x1="0" y1="\#(number(top))" x2="100%" y2="\#(number(top))" stroke="\#(Self.axisColor)" stroke-dasharray="3 4"/>"#,
            #"<line x1="0" y1="\#(baseline)" x2="100%" y2="\#(baseline)" stroke="\#(Self.axisColor)"/>"#,
            #"<text x="6" y="\#(number(top - 7))" font-size="\#(Int(Self.fontSize))" fill="currentColor">\#(peak)</text>"#,
        ]
        let steps = labelSteps()
        for (index, label) in labels.enumerated() where index % steps.large == 0 {
            let tier = index % steps.base == 0 ? "" : index % steps.medium == 0 ? #" class="chart-label-md""# : #" class="chart-label-lg""#
            let x = (Double(index) + 0.5) / Double(max(labels.count, 1)) * 100
            parts.append(
                #"<text\#(tier) x="\#(number(x))%" y="\#(number(height - 9))" font-size="\#(Int(Self.fontSize))" text-anchor="middle" fill="currentColor">\#(UTF8HTMLEscaping.escape(label))</text>"#
            )
        }
        parts.append("</svg>")
        return parts.joined(separator: "\n")
    }

    /// Every how many categories a label is written at each width: as many as fit without touching
    /// (at most about `labelCount` on a wide screen), each step a multiple of the wider one's.
    func labelSteps() -> (base: Int, medium: Int, large: Int) {
        let longest = Double(labels.map(\.count).max() ?? 1)
        let room = longest * 0.7 * Self.fontSize + 10
        func needed(_ chartWidth: Double) -> Int { max(Int((Double(labels.count) * room / chartWidth).rounded(.up)), 1) }
        func multiple(_ step: Int, atLeast minimum: Int) -> Int { step * max((minimum + step - 1) / step, 1) }
        let large = max(needed(Self.widths.large), labels.count / max(labelCount, 1), 1)
        let medium = multiple(large, atLeast: needed(Self.widths.medium))
        return (multiple(medium, atLeast: needed(Self.widths.base)), medium, large)
    }
}

import Foundation
import Testing

@testable import App

/// The server-drawn charts keep their words at 12 px at any width and write fewer of them on a narrow screen.
@Suite("Bar charts")
struct BarChartTests {
    static func chart(_ labels: [String]) -> BarChart {
        BarChart(
            id: "chart-test", cssClass: "stats-chart", title: "Test", series: [.init(cssClass: "bar-films", color: "#7b61ff")],
            labels: labels, values: labels.map { _ in [1] }, tooltips: labels.map { ["\($0): 1"] }, labelCount: 12)
    }

    @Test("the outer SVG is not scaled (no viewBox): its labels are 12 px, placed by percentage")
    func unscaledWords() {
        let svg = Self.chart(["Jan", "Feb", "Mar"]).svg
        let outer = svg.prefix { $0 != "\n" }
        #expect(!outer.contains("viewBox") && outer.contains(#"width="100%" height="240""#))
        #expect(svg.contains(#"preserveAspectRatio="none""#), "the bars stretch to the width in a nested SVG")
        #expect(svg.contains(#"<text x="16.7%" y="231.0" font-size="12" text-anchor="middle" fill="currentColor">Jan</text>"#))
        #expect(!svg.contains(#"font-size="11""#))
    }

    @Test("twelve months: every other label under 600 px, all from 600 px; ten ratings: every other under 900 px")
    func labelsPerWidth() {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let steps = Self.chart(months).labelSteps()
        #expect(steps.base == 2 && steps.medium == 1 && steps.large == 1)
        let svg = Self.chart(months).svg
        #expect(svg.contains(#">Jan</text>"#) && svg.contains(#"<text class="chart-label-md" x="12.5%""#))
        let stars = Self.chart(Rating.range.map(Rating.stars)).labelSteps()
        #expect(stars.base >= 2 && stars.base % stars.medium == 0 && stars.medium % stars.large == 0)
        let days = Self.chart((1...60).map { String(format: "11-%02d", $0) }).labelSteps()
        #expect(days.large >= 5 && days.medium % days.large == 0 && days.base % days.medium == 0, "a long report: about labelCount labels")
    }
}

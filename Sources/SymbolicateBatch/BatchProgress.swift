import Foundation

/// The one-line progress bar batch mode redraws on a terminal's stderr:
/// `[########------------]  412/1000  137.2/s  ETA 4s`.
package struct BatchProgressLine: Sendable {
    package var width: Int

    package init(width: Int = 24) { self.width = max(4, width) }

    package func render(done: Int, total: Int, elapsed: TimeInterval) -> String {
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let counter = String(repeating: " ", count: max(0, String(total).count - String(done).count)) + "\(done)/\(total)"
        var line = "[\(bar)] \(counter)  \(String(format: "%.1f", rate))/s"
        if done < total, rate > 0 {
            line += "  ETA \(Self.duration(Double(total - done) / rate))"
        } else if done >= total {
            line += "  \(Self.duration(elapsed))"
        }
        return line
    }

    /// The line written every few seconds when stderr is no terminal (a CI log), where a
    /// redrawn bar would be noise: `batch: 412 of 1,000 reports (41%), 137.2/s, ETA 4s`.
    package func renderLogLine(done: Int, total: Int, elapsed: TimeInterval) -> String {
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let percent = total > 0 ? min(100, done * 100 / total) : 100
        var line = "batch: \(done.formatted()) of \(total.formatted()) report\(total == 1 ? "" : "s") (\(percent)%)"
        if rate > 0 { line += ", \(String(format: "%.1f", rate))/s" }
        if done < total, rate > 0 { line += ", ETA \(Self.duration(Double(total - done) / rate))" }
        return line
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m\(String(format: "%02d", s % 60))s" }
        return "\(s / 3600)h\(String(format: "%02d", (s % 3600) / 60))m"
    }
}

import Foundation
import SymbolicateCore

/// Xcode Organizer exports (`Fixtures/logs/CrashApp.xccrashpoint`): an `.xccrashpoint` bundle is a folder holding
/// one log per incident under `Filters/Filter_N/DistributionInfos/<distribution>/Logs/`, plus
/// metadata (`PointInfo.json`). Users drag them out of Xcode and hand them over as they are,
/// one bundle or a folder of them, so they are read wherever a report is.
package enum XcodeCrashPoint {
    /// One log found in a bundle.
    package struct Log: Sendable, Hashable {
        /// The file to read.
        package var path: String
        /// The path as the user knows it: the bundle as given, then the path inside it.
        package var displayPath: String
    }

    /// Whether `path` names an `.xccrashpoint` bundle (by its extension: the bundle's
    /// content is ordinary folders and files).
    package static func isBundle(_ path: String) -> Bool {
        URL(fileURLWithPath: path).pathExtension.lowercased() == "xccrashpoint"
    }

    /// The logs of the bundle at `path`, or of every bundle directly inside the folder at
    /// `path`, in path order (`Filter_2` before `Filter_10`); nil when `path` is neither a
    /// bundle nor a folder holding one. Every regular file below a `Logs` folder is a log.
    package static func logs(at path: String) -> [Log]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return nil }
        if isBundle(path) { return logs(inBundle: path, display: path) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let bundles = names.filter { !$0.hasPrefix(".") && isBundle($0) }.sorted(by: pathOrder)
        guard !bundles.isEmpty else { return nil }
        let base = path.hasSuffix("/") ? path : path + "/"
        return bundles.flatMap { logs(inBundle: base + $0, display: base + $0) }
    }

    private static func logs(inBundle bundle: String, display: String) -> [Log] {
        let root = URL(fileURLWithPath: bundle).standardizedFileURL
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
        else { return [] }
        var found: [(relative: String, path: String)] = []
        for case let url as URL in walker {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                url.deletingLastPathComponent().lastPathComponent == "Logs"
            else { continue }
            let full = url.standardizedFileURL.path
            let relative = full.hasPrefix(root.path + "/") ? String(full.dropFirst(root.path.count + 1)) : url.lastPathComponent
            found.append((relative, url.path))
        }
        let prefix = display.hasSuffix("/") ? display : display + "/"
        return found.sorted { pathOrder($0.relative, $1.relative) }.map { Log(path: $0.path, displayPath: prefix + $0.relative) }
    }

    /// Numeric-aware, so `Filter_2` sorts before `Filter_10`.
    static func pathOrder(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.numeric]) == .orderedAscending
    }
}

extension CrashReport {
    /// Every report at `path`: one for a crash report, one per diagnostic for a MetricKit
    /// payload, and those of every log for an `.xccrashpoint` bundle or a folder of bundles.
    /// A log of a bundle that cannot be read is a warning on the first report read, not the
    /// end of the others; only when no log at all is readable is the first error thrown.
    package static func readAll(at path: String, sizeLimit: Int = defaultSizeLimit) throws(CrashReportError) -> [CrashReport] {
        guard let logs = XcodeCrashPoint.logs(at: path) else {
            return try parseAll(data: try read(contentsOf: path, sizeLimit: sizeLimit), path: path, sizeLimit: sizeLimit)
        }
        guard !logs.isEmpty else {
            throw CrashReportError(
                kind: .notACrashReport, path: path,
                message: "Xcode crash point without any log (expected Filters/Filter_N/DistributionInfos/all/Logs/*.crash)")
        }
        var reports: [CrashReport] = []
        var failures: [CrashReportError] = []
        for log in logs {
            do {
                let data = try read(contentsOf: log.path, displayPath: log.displayPath, sizeLimit: sizeLimit)
                reports += try parseAll(data: data, path: log.displayPath, sizeLimit: sizeLimit)
            } catch {
                failures.append(error)
            }
        }
        guard !reports.isEmpty else {
            // Non-empty: every log failed.
            throw failures.first ?? CrashReportError(kind: .notACrashReport, path: path, message: "no readable log")
        }
        reports[0].warnings += failures.map { ParseWarning(path: $0.path, line: $0.line, message: "log skipped: " + $0.message) }
        return reports
    }
}

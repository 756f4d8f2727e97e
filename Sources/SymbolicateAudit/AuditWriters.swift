import Foundation
import SymbolicateBatch
import SymbolicateCore
import SymbolicateCrashReport
import SymbolicateJSON

extension AuditFinding {
    /// What the status means, in a few words (the table's last column, JUnit and annotations),
    /// then what `--collect` did with a debug-mapped slice.
    public var detail: String {
        switch collection {
        case .linked(let tool)?: return statusDetail + "; linked into a dSYM by \(tool) and collected"
        case .notCollected(let reason)?: return statusDetail + "; not collected: \(reason)"
        case nil: return statusDetail
        }
    }

    private var statusDetail: String {
        switch status {
        case .dwarf(let units): return "DWARF, \(units) compile unit\(units == 1 ? "" : "s")"
        case .renamed(let units, let name):
            return "DWARF, \(units) compile unit\(units == 1 ? "" : "s"), under another name: \(name)"
        case .bitcodeHidden(_, let map?): return "bitcode-hidden names, BCSymbolMap \(map)"
        case .bitcodeHidden:
            return "names are bitcode-hidden (__hidden#); the build's BCSymbolMaps (\(uuid?.description ?? "?").bcsymbolmap) are needed"
        case .symbolTableOnly(.binary): return "no dSYM; the binary's own symbol table gives names, no files or lines"
        case .symbolTableOnly(.debugFile): return "the debug file has no DWARF: names only, no files or lines"
        case .otherBuild(let nearest, let arch, let path):
            return "no dSYM with this UUID; \(path) is of another build (\(nearest) \(arch))"
        case .stripped: return "stripped and no dSYM anywhere: frames stay addresses"
        case .noUUID: return "no LC_UUID: no crash report can be matched to a debug file"
        case .apple where name == AuditClassifier.previewDylib:
            return "Xcode's Previews interposer of a Debug build (install name \(installName ?? "?")): needs no dSYM"
        case .apple: return "Apple's Swift runtime (install name \(installName ?? "?")): needs no dSYM"
        case .debugStub(let dylib):
            return "Xcode's Debug stub executable: the app's code is in \(dylib), audited under its own UUID"
        case .debugMap(let objects, let unusable) where unusable.isEmpty:
            return
                "no dSYM (a Debug build); its debug map's \(objects) object file\(objects == 1 ? "" : "s") are here and give files and lines while kept as linked (dsymutil makes a dSYM of them)"
        case .debugMap(let objects, let unusable):
            let first = unusable[0]
            return
                "no dSYM (a Debug build); \(unusable.count) of the \(objects) object files its debug map names cannot be used (\(first.object): \(first.reason.rawValue)\(unusable.count > 1 ? ", …" : "")): their frames get names only"
        case .unreadable(let reason): return "could not be read, so nothing is known of its debug information: \(reason)"
        }
    }

    /// The status column: a word for each kind.
    package var statusWord: String {
        switch status {
        case .dwarf: return "ok"
        case .renamed: return "ok (renamed)"
        case .bitcodeHidden(_, let map): return map == nil ? "hidden names" : "ok (bitcode)"
        case .symbolTableOnly: return "names only"
        case .otherBuild: return "other build"
        case .stripped: return "missing"
        case .noUUID: return "no UUID"
        case .apple: return "Apple's"
        case .debugStub: return "stub"
        case .debugMap(_, let unusable): return unusable.isEmpty ? "ok (debug map)" : "objects missing"
        case .unreadable: return "unreadable"
        }
    }

    var mark: String { isSatisfied ? "✅" : (required ? "❌" : "⚠️") }
}

extension AuditReport {
    var title: String { "dSYM audit of \(build) (\(buildKind.rawValue))" }

    // MARK: Text

    /// The terminal table: one row per slice, then what failed and why.
    /// - Parameters:
    ///   - width: the terminal's columns: the path columns (binary, debug file) are shortened in
    ///     the middle (`Shop.app/…/Ads`) until a row fits; nil (a pipe, a file) keeps them whole.
    ///   - color: the verdict and status coloured (green complete, red failing, yellow
    ///     incomplete but not required), as `--color` decides.
    /// - Returns: the title, the table, then a line per incomplete slice.
    package func renderText(width: Int? = nil, color: Bool = false) -> String {
        let header = ["", "BINARY", "ARCH", "UUID", "ROLE", "STATUS", "DEBUG FILE"]
        var rows = findings.map { f in
            [
                f.isSatisfied ? "ok" : (f.required ? "FAIL" : "warn"), f.binary, f.architecture.name, f.uuid?.description ?? "–",
                f.role.rawValue, f.statusWord, f.debugFile ?? "–",
            ]
        }
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        if let width {
            let shrunk = Self.fit(widths, into: width, shrinking: [1, 6])
            if shrunk != widths {
                widths = shrunk
                rows = rows.map { row in row.enumerated().map { i, cell in Self.middleTruncated(cell, to: widths[i]) } }
            }
        }
        func line(_ cells: [String], paint: String? = nil) -> String {
            cells.enumerated().map { i, cell in
                let padded = i == cells.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
                // Padded first, then coloured: escapes take no columns.
                guard let paint, i == 0 || i == 5 else { return padded }
                let trimmed = padded.trimmingCharacters(in: .whitespaces)
                return paint + trimmed + Self.reset + String(repeating: " ", count: padded.count - trimmed.count)
            }
            .joined(separator: "  ") + "\n"
        }
        var out = "\(title), --require \(requirement.rawValue)\n\n"
        out += line(header)
        for (finding, row) in zip(findings, rows) { out += line(row, paint: color ? Self.paint(finding) : nil) }
        let incomplete = findings.filter { !$0.isSatisfied }
        if !incomplete.isEmpty {
            out += "\n"
            for f in incomplete {
                let verdict = f.required ? "FAIL" : "warn"
                out += "\(color ? Self.paint(f) + verdict + Self.reset : verdict) \(f.binary) (\(f.architecture.name)): \(f.detail)\n"
            }
        }
        return out
    }

    static let reset = "\u{1B}[0m"

    /// Green for complete, bold red for failing, yellow for incomplete but not required.
    static func paint(_ finding: AuditFinding) -> String {
        finding.isSatisfied ? "\u{1B}[32m" : (finding.required ? "\u{1B}[1;31m" : "\u{1B}[33m")
    }

    /// Column widths that fit `total` columns (two spaces between columns), taken from the
    /// `shrinking` columns, widest first, never below 12; as close as they get when even that
    /// does not fit.
    static func fit(_ widths: [Int], into total: Int, shrinking: [Int]) -> [Int] {
        var widths = widths
        let floor = 12
        var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - total
        while excess > 0, let widest = shrinking.filter({ widths[$0] > floor }).max(by: { widths[$0] < widths[$1] }) {
            widths[widest] -= 1
            excess -= 1
        }
        return widths
    }

    /// `text` in at most `width` characters, its middle replaced by `…` (a path keeps its
    /// first folders and its file name).
    static func middleTruncated(_ text: String, to width: Int) -> String {
        guard text.count > width, width >= 3 else { return text }
        let keep = width - 1
        let head = keep / 2
        return String(text.prefix(head)) + "…" + String(text.suffix(keep - head))
    }

    // MARK: JSON

    struct JSONFinding: Encodable {
        var binary: String
        var role: String
        var architecture: String
        var uuid: String?
        var installName: String?
        var signature: String
        var status: String
        var complete: Bool
        var required: Bool
        var fails: Bool
        var compileUnits: Int?
        var debugFile: String?
        var debugFileName: String?
        var symbolTable: String?
        var symbolMap: String?
        var otherBuild: OtherBuild?
        var debugMap: DebugMap?
        /// A Debug stub executable's code dylib.
        var debugDylib: String?
        /// What `--collect` did with a debug-mapped slice.
        var collect: Collect?
        var detail: String

        struct Collect: Encodable {
            /// `linked` or `not-collected`.
            var status: String
            var dsymutil: String?
            var reason: String?
        }

        struct OtherBuild: Encodable {
            var uuid: String
            var architecture: String
            var path: String
        }

        struct DebugMap: Encodable {
            var objects: Int
            var unusable: [Object]
            struct Object: Encodable {
                var object: String
                var reason: String
            }
        }
    }

    struct JSONReport: Encodable {
        var build: String
        var buildKind: String
        var require: String
        var findings: [JSONFinding]
        var totals: Totals

        struct Totals: Encodable {
            var binaries: Int
            var slices: Int
            var complete: Int
            var failing: Int
            var byStatus: [String: Int]
        }
    }

    /// The whole report; keys sorted, so reruns give the same bytes.
    package func renderJSON() -> String {
        let items = findings.map { f in
            var item = JSONFinding(
                binary: f.binary, role: f.role.rawValue, architecture: f.architecture.name, uuid: f.uuid?.description,
                installName: f.installName, signature: f.signature.text, status: f.status.kind, complete: f.status.isComplete,
                required: f.required, fails: f.fails, compileUnits: f.status.compileUnits, debugFile: f.debugFile, detail: f.detail)
            switch f.status {
            case .renamed(_, let name): item.debugFileName = name
            case .symbolTableOnly(let source): item.symbolTable = source.rawValue
            case .bitcodeHidden(_, let map): item.symbolMap = map
            case .otherBuild(let id, let arch, let path): item.otherBuild = .init(uuid: id.description, architecture: arch.name, path: path)
            case .debugMap(let objects, let unusable):
                item.debugMap = .init(objects: objects, unusable: unusable.map { .init(object: $0.object, reason: $0.reason.rawValue) })
            case .debugStub(let dylib): item.debugDylib = dylib
            default: break
            }
            switch f.collection {
            case .linked(let tool)?: item.collect = .init(status: "linked", dsymutil: tool)
            case .notCollected(let reason)?: item.collect = .init(status: "not-collected", reason: reason)
            case nil: break
            }
            return item
        }
        let totals = JSONReport.Totals(
            binaries: binaryCount, slices: findings.count, complete: findings.filter(\.status.isComplete).count, failing: failing.count,
            byStatus: Dictionary(grouping: findings, by: \.status.kind).mapValues(\.count))
        let document = JSONReport(
            build: build, buildKind: buildKind.rawValue, require: requirement.rawValue, findings: items, totals: totals)
        return (OutputJSON.text(document) ?? "{}") + "\n"
    }

    // MARK: Markdown

    /// A table for `$GITHUB_STEP_SUMMARY`: every slice, the failing ones first.
    package func renderMarkdown() -> String {
        var out = "## \(BatchSummary.inline(title))\n\n"
        let complete = findings.filter(\.status.isComplete).count
        out += "\(findings.count) slice\(findings.count == 1 ? "" : "s") of \(binaryCount) binar\(binaryCount == 1 ? "y" : "ies"), "
        out += "\(complete) complete; "
        out +=
            failing.isEmpty
            ? "everything `--require \(requirement.rawValue)` asks for can be symbolicated.\n\n"
            : "**\(failing.count) required by `--require \(requirement.rawValue)` cannot be fully symbolicated.**\n\n"
        out += "| | Binary | Arch | Role | UUID | Status | Debug file |\n|---|---|---|---|---|---|---|\n"
        let ordered = findings.filter(\.fails) + findings.filter { !$0.fails }
        for f in ordered {
            out += "| \(f.mark) | `\(BatchSummary.code(f.binary))` | \(f.architecture.name) | \(f.role.rawValue) | "
            out += "\(f.uuid.map { "`\($0)`" } ?? "–") | \(BatchSummary.cell(f.isSatisfied ? f.statusWord : f.detail)) | "
            out += "\(f.debugFile.map { BatchSummary.cell($0) } ?? "–") |\n"
        }
        return out + "\n"
    }

    // MARK: JUnit

    /// One test case per slice: passed when complete, failed when required and incomplete,
    /// skipped (with the reason) when incomplete but not required.
    package func renderJUnit() -> String {
        let failures = failing.count
        let skipped = findings.filter { !$0.isSatisfied && !$0.required }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"symbolicate audit\" tests=\"\(findings.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        out +=
            "  <testsuite name=\"\(BatchSummary.xml(build))\" tests=\"\(findings.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"\(skipped)\">\n"
        for f in findings {
            let name = "\(f.binary) (\(f.architecture.name))"
            out += "    <testcase classname=\"\(f.role.rawValue)\" name=\"\(BatchSummary.xml(name))\">"
            if f.fails {
                out += "\n      <failure type=\"\(f.status.kind)\" message=\"\(BatchSummary.xml(f.detail))\">"
                out += BatchSummary.xml("UUID: \(f.uuid?.description ?? "none")\nRequired by --require \(requirement.rawValue)")
                out += "</failure>\n    "
            } else if !f.isSatisfied {
                out += "\n      <skipped message=\"\(BatchSummary.xml("\(f.status.kind), not required: \(f.detail)"))\"/>\n    "
            }
            out += "</testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    // MARK: GitHub annotations

    /// `::error` for each failing slice, `::warning` for each incomplete one `--require` lets pass.
    package func renderGitHubAnnotations() -> String {
        var out = ""
        for f in findings where !f.isSatisfied {
            let title = "\(f.fails ? "Missing debug information" : "Incomplete debug information"): \(f.name) (\(f.architecture.name))"
            let message = "\(f.binary) \(f.uuid?.description ?? ""): \(f.detail)"
            out += "::\(f.fails ? "error" : "warning") title=\(BatchSummary.ghProperty(title))::\(BatchSummary.ghData(message))\n"
        }
        return out
    }
}

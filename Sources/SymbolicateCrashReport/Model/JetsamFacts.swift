import Foundation

/// A process a jetsam event report lists as killed (it carries a `reason`).
public struct JetsamProcess: Sendable, Hashable {
    public var name: String
    public var pid: Int?
    /// The jetsam reason as the report spells it (`per-process-limit`, `highwater`, `vm-thrashing`…).
    public var reason: String
    /// Resident memory (`rpages` × page size) when the report gives it.
    public var residentBytes: UInt64?
    public var isFrontmost: Bool
}

extension CrashReport {
    /// Every process the jetsam event report marks as killed, in report order. Empty for
    /// other reports, and for a text report whose process table is cut before any such row.
    public var jetsamKilledProcesses: [JetsamProcess] {
        guard kind == .jetsam else { return [] }
        switch source {
        case .ips(_, let body, _):
            let pageSize = body["memoryStatus"]?["pageSize"]?.uint64Value ?? 16384
            return (body["processes"]?.arrayValue ?? []).compactMap { process in
                guard let reason = process["reason"]?.stringValue else { return nil }
                let pid = process["pid"]?.intValue
                return JetsamProcess(
                    name: process["name"]?.stringValue ?? "pid \(pid.map(String.init) ?? "?")", pid: pid, reason: reason,
                    residentBytes: process["rpages"]?.uint64Value.map { $0.multipliedReportingOverflow(by: pageSize).partialValue },
                    isFrontmost: (process["states"]?.arrayValue ?? []).contains { $0.stringValue == "frontmost" })
            }
        case .text where !logEvents.isEmpty:
            return logJetsamKills
        case .text(let document):
            return Self.textJetsamRows(document.lines.map(\.text), pageSize: headerFields.first { $0.key == "Page Size" }?.value)
        case .none:
            return []
        }
    }

    /// The process a user means by "the app that was killed": the frontmost killed one, else
    /// the largest killed one.
    public var jetsamVictim: JetsamProcess? {
        let killed = jetsamKilledProcesses
        return killed.first { $0.isFrontmost } ?? killed.max { ($0.residentBytes ?? 0) < ($1.residentBytes ?? 0) }
    }

    /// `largestProcess` / `Largest process:` of a jetsam event report.
    public var jetsamLargestProcess: String? {
        guard kind == .jetsam else { return nil }
        if case .ips(_, let body, _) = source, let name = body["largestProcess"]?.stringValue { return name }
        return headerFields.first { $0.key == "Largest process" }?.value
    }

    /// Rows of the legacy text process table (`Name | <UUID> | … | rpages | … | [reason] | (state)`)
    /// that carry a `[reason]`; columns are found from the table's own header line.
    static func textJetsamRows(_ lines: [String], pageSize: String?) -> [JetsamProcess] {
        guard let headerIndex = lines.firstIndex(where: { $0.containsBytes("[reason]") && $0.containsBytes("|") }) else { return [] }
        let columns = lines[headerIndex].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let rpagesColumn = columns.firstIndex(of: "rpages")
        let bytesPerPage = pageSize.flatMap { UInt64($0.trimmingCharacters(in: .whitespaces)) } ?? 4096
        // Rows may be aligned with `|` like the header or with spaces only: the `[reason]` and
        // the name before `<UUID>` are found either way; rpages only when the columns line up.
        return lines[(headerIndex + 1)...].compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]"),
                line.index(after: open) < close
            else { return nil }
            let reason = line[line.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            guard !reason.isEmpty, reason.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else { return nil }
            let head = line.split(separator: "<", maxSplits: 1).first.map(String.init) ?? ""
            let name = (head.split(separator: "|").first.map(String.init) ?? head).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name != line.trimmingCharacters(in: .whitespaces) else { return nil }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let pages = cells.count == columns.count ? rpagesColumn.flatMap { UInt64(cells[$0]) } : nil
            return JetsamProcess(
                name: name, pid: nil, reason: reason,
                residentBytes: pages.map { $0.multipliedReportingOverflow(by: bytesPerPage).partialValue },
                isFrontmost: line.containsBytes("(frontmost)"))
        }
    }

    /// The first line of `VM Region Info` (`0 is not in any region.  Bytes before …`), when the
    /// report has one.
    public var vmRegionInfo: String? {
        let text: String?
        switch source {
        case .ips(_, let body, _): text = body["vmRegionInfo"]?.stringValue
        case .text(let document):
            text = document.lines.lazy.map(\.text).first { $0.hasPrefix("VM Region Info:") }
                .map { String($0.dropFirst("VM Region Info:".count)) }
        case .none: text = nil
        }
        let first = text?.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) }
        return first.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The region the fault is in, the line the region list marks with `-->` (`--> STACK GUARD
    /// 0000700001d53000-… stack guard for thread 2`): under `VM Region Info:` or, in older macOS
    /// reports, `VM Regions Near 0x…:`.
    public var vmRegionArrow: String? {
        let lines: [Substring]
        switch source {
        case .ips(_, let body, _): lines = body["vmRegionInfo"]?.stringValue?.split(whereSeparator: \.isNewline) ?? []
        case .text(let document):
            guard
                let header = document.lines.firstIndex(where: {
                    $0.text.hasBytePrefix("VM Region Info:") || $0.text.hasBytePrefix("VM Regions Near ")
                })
            else { return nil }
            lines = document.lines[header...].prefix(8).map { Substring($0.text) }
        case .none: lines = []
        }
        // `-->` (or `--->`, as some reports print it) marks the region.
        guard let marked = lines.lazy.map({ $0.trimmedBlanks }).first(where: { $0.hasBytePrefix("-->") || $0.hasBytePrefix("--->") }) else {
            return nil
        }
        return marked.drop { $0 == "-" || $0 == ">" }.trimmedBlanks
    }
}

import Foundation
import SymbolicateCore

/// Numbers as reports print them: `0x8badf00d`, `5`, or bare hex of four digits or more
/// (`8badf00d`). The one reader of such values, so a code means the same in every stage.
package enum ReportNumber {
    package static func parse(_ text: some StringProtocol) -> UInt64? {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lower.hasPrefix("0x") { return UInt64(lower.dropFirst(2), radix: 16) }
        if let decimal = UInt64(lower) { return decimal }
        if lower.count >= 4, lower.allSatisfy(\.isHexDigit) { return UInt64(lower, radix: 16) }
        return nil
    }

    /// A number written with its `0x` (`0x8badf00d`), nil for any other word: among a line's
    /// words, only what the report marks as hexadecimal is a code (`2` or `1234` are not).
    package static func parseMarkedHex(_ text: some StringProtocol) -> UInt64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasBytePrefix("0x") || trimmed.hasBytePrefix("0X") else { return nil }
        return parse(trimmed)
    }
}

extension ExceptionInfo {
    /// An `Exception Type` field's value, as every text layout prints it: `EXC_BAD_ACCESS (SIGSEGV)`,
    /// `EXC_BAD_ACCESS (SIGKILL (Code Signature Invalid))`, `EXC_CRASH (SIGKILL - CODESIGNING)`, or a
    /// bare name (`SIGSEGV`, third-party reporters). The signal is what the parentheses that close
    /// the value hold, nested ones included; the type is what comes before them.
    package init(typeField value: String) {
        self.init()
        guard value.hasSuffix(")") else {
            type = value
            return
        }
        var depth = 0
        var index = value.endIndex
        while index > value.startIndex {
            index = value.index(before: index)
            if value[index] == ")" {
                depth += 1
            } else if value[index] == "(" {
                depth -= 1
                if depth == 0 { break }
            }
        }
        guard depth == 0, value[index] == "(", index > value.startIndex, value[value.index(before: index)] == " " else {
            type = value
            return
        }
        type = value[..<index].trimmingCharacters(in: .whitespaces)
        signal = String(value[value.index(after: index)..<value.index(before: value.endIndex)])
    }

    /// The facts of this exception alone, read as a report's fields are (`FactReading`): what a
    /// single line a user copied from a report says (`symbolicate explain 'KERN_INVALID_ADDRESS at 0x10'`).
    package var facts: ExceptionFacts {
        FactReading.exception(self, regionLine: nil, platform: nil)
    }
}

// The exception and termination fields keep the text the reader saw (writers and JSON print it
// as it was); what that text means is decided here, once, by `FactReading`, which puts it in
// `CrashReport.facts` for every later stage. Internal: no stage reads these fields' text again.

extension ExceptionInfo {
    /// The Mach exception type (`EXC_BAD_ACCESS`), or nil when the type field holds something
    /// else: a bare signal (third-party reporters print `SIGSEGV` there) or, beside a signal,
    /// a description of the crash (the Swift runtime's backtraces: `Illegal instruction`).
    var machExceptionType: String? {
        guard let type else { return nil }
        if type.hasPrefix("SIG"), signal == nil { return nil }
        if !type.hasPrefix("EXC_"), signal != nil { return nil }
        return type
    }

    /// The signal (`SIGSEGV`): the signal field, or a bare signal printed as the type.
    var signalName: String? {
        if let signal { return signal }
        if let type, type.hasPrefix("SIG") { return type }
        return nil
    }

    /// `Exception Codes:` as numbers (`0x0000000000000001, 0x0000000000000000` → [1, 0]);
    /// empty when a code is not a number (the line then says something else).
    var codeValues: [UInt64] {
        guard let codes else { return [] }
        let parts = codes.split(separator: ",")
        let values = parts.compactMap { ReportNumber.parse($0) }
        return values.count == parts.count ? values : []
    }

    /// Whether the report itself says the process kept running.
    var isNonFatal: Bool {
        nonFatalNote != nil || (note.map { $0.containsBytes("NOT a crash") } ?? false)
    }
}

extension TerminationInfo {
    /// The namespace as the knowledge base names it (`FRONTBOARD`, `SIGNAL`), whatever its case.
    var namespaceName: String? { namespace?.uppercased() }

    /// The code as a number: Apple prints hex (`0x8badf00d`) and decimal (`5`), sometimes
    /// followed by words (`0xdead10cc (deadlock)`).
    var codeValue: UInt64? {
        code?.split(separator: " ").first.flatMap { ReportNumber.parse($0) }
    }
}

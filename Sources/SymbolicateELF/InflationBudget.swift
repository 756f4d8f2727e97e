import Foundation

/// Bytes of compressed ELF debug sections (`SHF_COMPRESSED`, `.zdebug_*`) inflated in memory,
/// bounded per file and per process. A header is allowed to declare up to ~1032 times its
/// compressed size, so a small upload truthfully declaring four 1 GiB sections held 4.1 GB
/// (issue 54, finding 13), in the upload's check and in every request that opened the file.
/// Past a budget the section is refused with an `ELFError` naming it, before anything is
/// allocated. A file's sections count until the file is closed.
package final class InflationBudget: @unchecked Sendable {
    /// What one open file may inflate, in bytes.
    package let perFile: UInt64
    /// What all open files of the process may hold inflated at once, in bytes.
    package let total: UInt64
    private let lock = NSLock()
    private var inUse: UInt64 = 0

    package init(perFile: UInt64, total: UInt64) {
        self.perFile = min(perFile, total)
        self.total = total
    }

    /// The process's budget: `SYMBOLICATE_MAX_INFLATE_MIB` per file (default 2048) and
    /// `SYMBOLICATE_MAX_INFLATE_TOTAL_MIB` for the process (default 4096).
    package static let process: InflationBudget = {
        let environment = ProcessInfo.processInfo.environment
        func mebibytes(_ name: String, _ fallback: UInt64) -> UInt64 {
            let value = environment[name].flatMap(UInt64.init) ?? fallback
            return value >= 1 << 40 ? UInt64.max : value << 20
        }
        return InflationBudget(
            perFile: mebibytes("SYMBOLICATE_MAX_INFLATE_MIB", 2048), total: mebibytes("SYMBOLICATE_MAX_INFLATE_TOTAL_MIB", 4096))
    }()

    /// Reserves `bytes` more for a file already holding `held`; nil when granted, else why not
    /// (the caller's error names the file and section).
    func reserve(_ bytes: UInt64, held: UInt64) -> String? {
        let (fileTotal, fileOverflow) = held.addingReportingOverflow(bytes)
        if fileOverflow || fileTotal > perFile {
            return
                "inflating it (\(bytes) bytes) would pass the \(perFile)-byte budget of one file for compressed debug sections (SYMBOLICATE_MAX_INFLATE_MIB); refused"
        }
        lock.lock()
        defer { lock.unlock() }
        let (processTotal, overflow) = inUse.addingReportingOverflow(bytes)
        if overflow || processTotal > total {
            return
                "inflating it (\(bytes) bytes) would pass the \(total)-byte budget of the process for compressed debug sections (SYMBOLICATE_MAX_INFLATE_TOTAL_MIB; \(inUse) bytes held by open files); refused"
        }
        inUse = processTotal
        return nil
    }

    /// Gives back what a closed file held.
    func release(_ bytes: UInt64) {
        lock.lock()
        defer { lock.unlock() }
        inUse -= min(inUse, bytes)
    }

    /// Bytes held by open files (for tests and logs).
    package var held: UInt64 {
        lock.lock()
        defer { lock.unlock() }
        return inUse
    }
}

import Foundation
import SymbolicateCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the batch summary even when the process dies mid-run of a fatal signal (a trap on
/// some hostile report, a segfault, `kill -SEGV`): the reports finished so far are listed as
/// usual, the ones being processed as failed with the signal named, the rest as not
/// processed. Then the previous handlers are restored and the signal raised again, so the
/// exit status still says the run died (and the Swift runtime's backtrace still prints).
///
/// Best effort by nature: the handler allocates, which is fine after a Swift trap (a check,
/// not heap corruption) but may not be after real memory corruption. It never makes things
/// worse than dying without a summary, which is what happened before.
package final class BatchCrashGuard: @unchecked Sendable {
    /// The signals after which a summary is attempted.
    package static let fatalSignals: [Int32] = [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE, SIGABRT]

    /// Receives the results to summarise (in input order) and writes the summary files.
    private let writeSummary: ([BatchReportResult]) -> Void
    private var inputs: [ReportInput] = []
    private var snapshot: (() -> (slots: [[BatchReportResult]?], started: Int))?
    /// A signal handler as `signal` takes and returns it (glibc spells the type `sighandler_t`,
    /// Darwin `sig_t`; the function type is the same on both).
    private typealias SignalHandler = @convention(c) (Int32) -> Void
    private var previous: [Int32: SignalHandler?] = [:]

    /// The guard the C signal handler reaches (one batch per process).
    nonisolated(unsafe) private static var current: BatchCrashGuard?
    nonisolated(unsafe) private static var handling = false

    package init(writeSummary: @escaping ([BatchReportResult]) -> Void) {
        self.writeSummary = writeSummary
    }

    /// Called by `BatchRunner.run` before the first report: from now on a fatal signal
    /// writes a summary from `snapshot`.
    func attach(inputs: [ReportInput], snapshot: @escaping () -> (slots: [[BatchReportResult]?], started: Int)) {
        self.inputs = inputs
        self.snapshot = snapshot
        Self.current = self
        for number in Self.fatalSignals {
            previous[number] = signal(number, { number in BatchCrashGuard.handle(number) })
        }
    }

    /// Called when the run is over: the normal path writes the summary itself.
    func detach() {
        restoreHandlers()
        Self.current = nil
        snapshot = nil
    }

    private func restoreHandlers() {
        for (number, handler) in previous { signal(number, handler) }
        previous = [:]
    }

    private static func handle(_ number: Int32) {
        guard !handling, let guardian = current else {
            signal(number, SIG_DFL)
            raise(number)
            return
        }
        handling = true
        guardian.restoreHandlers()
        if let snapshot = guardian.snapshot {
            let (slots, started) = snapshot()
            guardian.writeSummary(results(inputs: guardian.inputs, slots: slots, started: started, signal: number))
        }
        TemporaryFiles.shutDown()
        // Pending until this handler returns (the signal is blocked in it); a fault then
        // also re-executes and reaches the restored handler.
        raise(number)
    }

    /// The results a summary after signal `number` lists, in input order.
    static func results(inputs: [ReportInput], slots: [[BatchReportResult]?], started: Int, signal number: Int32) -> [BatchReportResult] {
        let name = signalName(number)
        var results: [BatchReportResult] = []
        for (index, input) in inputs.enumerated() {
            if index < slots.count, let done = slots[index] {
                results += done
                continue
            }
            var failed = BatchReportResult(input: input.relativePath)
            failed.error =
                index < started
                ? "symbolicate died of \(name) while processing this report (a bug in symbolicate: please report it with this file)"
                : "not processed: the run died of \(name) before reaching it"
            results.append(failed)
        }
        return results
    }

    static func signalName(_ number: Int32) -> String {
        let names: [Int32: String] = [
            SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS",
            SIGFPE: "SIGFPE", SIGABRT: "SIGABRT",
        ]
        return names[number] ?? "signal \(number)"
    }
}

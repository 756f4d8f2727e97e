import Foundation
import SymbolicateCore

/// What a report's messages (Application Specific Information, the exception's message,
/// termination details) state besides the crash's main facts, each with the lines that state it,
/// kept for quoting. Read once (`FactReading`); explain decides what they mean.
public struct MessageStatements: Sendable, Hashable {
    /// libobjc's `selector name:` line for a message sent to a freed object.
    public var selectorLine: String?
    /// The line naming `dlopen` and the one after it (a library refused at load time).
    public var dlopenLines: [String] = []
    /// dyld's `Library not loaded:`, `Symbol not found:`, `Referenced from:` lines.
    public var dyldLines: [String] = []
    /// dyld's message as one line, the way its block states it (`Library not loaded: @rpath/X`
    /// or `Symbol not found: _f`, with the block's `Reason:` or `Expected in:` line), without the
    /// `dyld[pid]:` or `Dyld Message:` prefix the line was printed with.
    public var dyldMessage: String?
    /// libc++abi's bare `terminating`: `std::terminate` with no exception in flight.
    public var terminatesWithoutException = false
    /// A line saying a UI or main-thread-only API was used off the main thread (UIKit, AppKit,
    /// Auto Layout say so in the exception's reason).
    public var offMainThreadLine: String?
    /// That line from its `reason: ` on, when it has one (libobjc's line names the exception
    /// first): the words that say which call needed the main thread.
    public var offMainThreadReason: String? {
        guard let line = offMainThreadLine else { return nil }
        return line.byteRange(of: "reason: ").map { String(line[$0.lowerBound...]) } ?? line
    }
    /// A dispatch queue assertion (`Block was expected to execute on queue [q]`) naming a queue
    /// other than the main one.
    public var expectsOtherQueue = false
    /// The messages name the main thread or the main actor (`com.apple.main-thread`, `MainActor`).
    public var namesMainThread = false

    public init() {}
}

/// A resource limit report's resource and outcome.
public struct ResourceFacts: Sendable, Hashable {
    /// Which resource the report counts, as its `Event:` header or exception subtype names it.
    public var resource: ReportKind.ResourceType?
    /// The system ended the process for it (`… FATAL`, `Action taken: Process killed`).
    public var isFatal: Bool

    public init(resource: ReportKind.ResourceType?, isFatal: Bool) {
        self.resource = resource
        self.isFatal = isFatal
    }
}

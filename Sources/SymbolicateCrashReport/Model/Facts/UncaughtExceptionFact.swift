import Foundation

/// An exception nothing caught, from every layout alike: a reporter's typed keys (KSCrash,
/// Sentry, MetricKit, crash services), the console's or LLDB's line, or libobjc's and libc++abi's
/// line in Application Specific Information.
public struct UncaughtExceptionFact: Sendable, Hashable {
    public var exception: UncaughtException
    /// The report has the backtrace of the throw (`Last Exception Backtrace`, a reporter's
    /// exception stack, the console's `First throw call stack`).
    public var hasBacktrace: Bool
    /// The report's own line that states it, when it is a line of text (quoted as evidence);
    /// nil when the reader read it from data.
    public var quote: String?
    /// What the reason says went wrong, when it says it in Foundation's words.
    public var reasonClass: ReasonClass? { exception.reason.flatMap(ReasonClass.init(reason:)) }

    /// What an Objective-C exception's reason says went wrong.
    public enum ReasonClass: String, Sendable, Hashable {
        /// `-[X y]: unrecognized selector sent to instance 0x…`.
        case unrecognizedSelector
        /// `… cannot be nil`, `attempt to insert nil object`.
        case nilArgument
        /// `index 3 beyond bounds [0 .. 2]`, `out of bounds`.
        case outOfBounds
        /// `Collection <…> was mutated while being enumerated.`
        case mutatedWhileEnumerated
        /// `this class is not key value coding-compliant for the key …`.
        case keyValueCoding
        /// A main-thread-only API used from another thread, in the framework's words (`NSWindow drag
        /// regions should only be invalidated on the Main Thread!`, `Call must be made on main thread`).
        case offMainThread

        /// The words `init(reason:)` reads a class from: a reason holds one of them.
        static let words = [
            "unrecognized selector sent to", "cannot be nil", "nil value", "attempt to insert nil", "beyond bounds", "out of bounds",
            "was mutated while being enumerated", "not key value coding-compliant",
        ]

        public init?(reason: String) {
            // A reason can be long (a reporter's own value): searched in linear time.
            let text = Array(reason.utf8)
            func says(_ words: String...) -> Bool { words.contains { MessageScan.occurs(Array($0.utf8), in: text) } }
            if says("unrecognized selector sent to") {
                self = .unrecognizedSelector
            } else if says("cannot be nil", "nil value", "attempt to insert nil") {
                self = .nilArgument
            } else if says("beyond bounds", "out of bounds") {
                self = .outOfBounds
            } else if says("was mutated while being enumerated") {
                self = .mutatedWhileEnumerated
            } else if says("not key value coding-compliant") {
                self = .keyValueCoding
            } else if reason.utf8.count <= 600, MainThreadRequirement.isStatement(Substring(reason)) {
                self = .offMainThread
            } else {
                return nil
            }
        }
    }

    public init(_ exception: UncaughtException, hasBacktrace: Bool = false, quote: String? = nil) {
        self.exception = exception
        self.hasBacktrace = hasBacktrace
        self.quote = quote
    }
}

extension CrashReport {
    /// Records an uncaught exception a reader read as data, on the exception (made when the
    /// report names none).
    mutating func setUncaught(_ uncaught: UncaughtException) {
        var info = exception ?? ExceptionInfo()
        info.uncaught = uncaught
        exception = info
    }
}

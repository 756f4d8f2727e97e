import Foundation

/// A failed assertion the report states in a line of text (Swift runtime checks are
/// `CrashFacts.swiftRuntimeError`).
public struct AssertionFact: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// C `assert()`'s whole message: `Assertion failed: (x), function f, file f.c, line 3.`
        case cAssert
        /// A line that says an assertion failed without C's full form (`Assertion failed:`,
        /// `assertion failure`).
        case assertionMessage
    }
    public var kind: Kind
    /// The report's line that states it (quoted as evidence).
    public var quote: String?

    public init(_ kind: Kind, quote: String? = nil) {
        self.kind = kind
        self.quote = quote
    }
}

extension AssertionFact {
    /// libc++'s hardening check, named by an artificial inlined frame (`…: assertion __n < size()
    /// failed: vector[] index out of bounds`): the name read as the check's file part and message.
    /// The frame has this name only once symbolicated, so it is read from the frame when asked,
    /// not when the report is read.
    public static func libcxxAssertion(frameName: String) -> (file: String, what: String)? {
        MessageScan(frameName).libcxxAssertion()
    }
}

import Foundation

/// A message the report states in words about why the process stopped (issue 48): an
/// exception's reason, a line of Application Specific Information, a console diagnostic, an
/// Xcode `Thread 1:` annotation, an `abort()` message. Explain quotes it as the stated cause when
/// no rule knows it, so a diagnosis never says less than the text it read.
public struct StatedMessage: Sendable, Hashable {
    /// Where the report printed it: explain names the source next to the quote.
    public enum Source: String, Sendable, Hashable, CaseIterable {
        /// An uncaught exception's reason, or a C++ exception's `what()`.
        case exceptionReason
        /// A line of Application Specific Information (or a reporter's crash-info message).
        case appSpecificInformation
        /// The report's exception message field.
        case exceptionMessage
        /// A Swift runtime check's line (`Fatal error:`, `Precondition failed:`).
        case runtimeError
        /// A line of console or log output a reader took it from.
        case console
        /// A debugger's annotation of the stop (Xcode's `Thread 1: …`, LLDB's stop reason).
        case debuggerAnnotation
    }

    /// The message as printed, trimmed.
    public var text: String
    public var source: Source
    /// The source file and line the message names (`RealmSwift/Util.swift:169`), when it names one.
    public var place: String?

    public init(_ text: String, source: Source, place: String? = nil) {
        self.text = text
        self.source = source
        self.place = place
    }
}

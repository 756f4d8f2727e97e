import Foundation

/// What a crash reporter's event records as data beside Apple's fields: an error it keeps by name
/// and value, and what it says about the report itself. Its reader sets it from the reporter's
/// keys; `FactReading` states the error as a message and the Apple-format writers print it in
/// Application Specific Information, so no reader composes a sentence for another stage to read.
public struct ReporterRecordFact: Sendable, Hashable {
    /// The reporter (`KSCrash`, `Sentry`, `PLCrashReporter`).
    public var reporter: String
    /// An error the event keeps by name and value and types no further (KSCrash's user-reported
    /// exception, Sentry's exception of a mechanism other than an Objective-C or C++ one).
    public var error: ReportedError?
    /// The report is of the reporter's own handler crashing while it wrote the report of the
    /// original crash (KSCrash's `recrash_report`): its frames are the reporter's, not the app's bug.
    public var isHandlerCrash = false
    /// The exception the report names had been freed when the process crashed, and the frames are
    /// of the access to it (KSCrash's `last_dealloced_nsexception`).
    public var exceptionWasDeallocated = false
    /// The app asked for the report and did not crash (PLCrashReporter's live report).
    public var isRequestedByApp = false

    public init(reporter: String) {
        self.reporter = reporter
    }

    /// Nothing recorded beyond the reporter's name.
    public var isEmpty: Bool { error == nil && !isHandlerCrash && !exceptionWasDeallocated && !isRequestedByApp }
}

/// An error a reporter's event keeps by name and value.
public struct ReportedError: Sendable, Hashable {
    /// The error's name or type (`NSInternalInconsistencyException`, `EXC_BAD_ACCESS`, `App Hanging`).
    public var name: String?
    /// What the error says.
    public var reason: String?
    /// The app reported it through the reporter's API (KSCrash's `reportUserException`), as
    /// opposed to the reporter catching it.
    public var isUserReported = false
    /// The language the app named when it reported it (`javascript`, `C#`).
    public var language: String?
    /// The line of code the app gave with it.
    public var lineOfCode: String?
    /// The backtrace the app gave with it, a line each, as given.
    public var backtrace: [String] = []

    public init(name: String?, reason: String?) {
        self.name = name
        self.reason = reason
    }

    /// The error as one statement, `name: reason` (the reason alone without a name; the name
    /// alone without a reason): the message `FactReading` states for it.
    public var statement: String? {
        let name = name?.trimmingCharacters(in: .whitespaces)
        let reason = reason?.trimmingCharacters(in: .whitespaces)
        switch (name?.isEmpty == false ? name : nil, reason?.isEmpty == false ? reason : nil) {
        case (let name?, let reason?): return "\(name): \(reason)"
        case (nil, let reason?): return reason
        case (let name?, nil): return name
        case (nil, nil): return nil
        }
    }
}

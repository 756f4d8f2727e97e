import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport

/// `CrashReport.facts`: what a report says, typed, read once by its reader (issue 47). Every
/// reader fills the facts from its own input; none writes Apple's English into a text field for
/// a later stage to parse; one crash in every layout that carries it gives the same facts.
@Suite struct CrashFactsTests {
    static let fixtures = TestPaths.fixtures

    /// Every input file of the fixtures (the expected outputs, debug files, binaries and sources left out,
    /// and the held-back crash texts of crashtexts/holdout6 to holdout29, which no tool reads before issue 48's closing measure).
    static let inputs: [String] = {
        let skipped: Set<String> = ["expected", "dsyms", "bin", "src", "tools", "audit", "system-symbols", "symbol-sources"]
        let extensions: Set<String> = ["crash", "ips", "json", "txt", "log", "envelope", "panic", "spin", "hang", "diag"]
        var out: [String] = []
        let root = fixtures.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let relative = walker.nextObject() as? String {
            let first = relative.split(separator: "/").first.map(String.init) ?? relative
            if skipped.contains(first) || relative.contains(".dSYM/") || relative.hasPrefix("crashtexts/holdout6/")
                || relative.hasPrefix("crashtexts/holdout7/") || relative.hasPrefix("crashtexts/holdout8/")
                || relative.hasPrefix("crashtexts/holdout9/") || relative.hasPrefix("crashtexts/holdout10/")
                || relative.hasPrefix("crashtexts/holdout11/") || relative.hasPrefix("crashtexts/holdout12/")
                || relative.hasPrefix("crashtexts/holdout13/") || relative.hasPrefix("crashtexts/holdout14/")
                || relative.hasPrefix("crashtexts/holdout15/") || relative.hasPrefix("crashtexts/holdout16/")
                || relative.hasPrefix("crashtexts/holdout17/") || relative.hasPrefix("crashtexts/holdout18/")
                || relative.hasPrefix("crashtexts/holdout19/") || relative.hasPrefix("crashtexts/holdout20/")
                || relative.hasPrefix("crashtexts/holdout21/") || relative.hasPrefix("crashtexts/holdout22/")
                || relative.hasPrefix("crashtexts/holdout23/") || relative.hasPrefix("crashtexts/holdout24/")
                || relative.hasPrefix("crashtexts/holdout25/") || relative.hasPrefix("crashtexts/holdout26/")
                || relative.hasPrefix("crashtexts/holdout27/") || relative.hasPrefix("crashtexts/holdout28/")
                || relative.hasPrefix("crashtexts/holdout29/")
            {
                continue
            }
            let ext = (relative as NSString).pathExtension
            guard extensions.contains(ext), relative != "facts.json", !relative.hasSuffix("manifest.json") else { continue }
            out.append(relative)
        }
        return out.sorted()
    }()

    static func read(_ relative: String) throws -> [CrashReport] {
        try CrashReport.parseAll(data: try Data(contentsOf: fixtures.appendingPathComponent(relative)), path: relative)
    }

    /// The words explain once found its facts by. A reader that writes them has printed a fact
    /// instead of setting it.
    static let statedWords = [
        "uncaught exception", "terminating due to", "terminating with", "deadlocked", "deadlock", "assertion failed",
        "fatal error",
    ]

    @Test func thereAreFixturesOfEveryLayout() throws {
        #expect(Self.inputs.count >= 60, "\(Self.inputs.count) inputs")
        var formats = Set<String>()
        for input in Self.inputs { for report in (try? Self.read(input)) ?? [] { formats.insert(report.format.rawValue) } }
        #expect(formats.isSuperset(of: ["text", "ips", "metrickit", "kscrash", "sentry"]), "\(formats.sorted())")
    }

    /// Every fixture through every reader (each file goes to the reader that recognises it): the
    /// words of a fact are in a report's text fields only when the input itself has them.
    @Test func noReaderWritesEnglishIntoTextFields() throws {
        var read = 0
        for input in Self.inputs {
            guard let reports = try? Self.read(input) else { continue }
            let source = try String(decoding: Data(contentsOf: Self.fixtures.appendingPathComponent(input)), as: UTF8.self).lowercased()
            for report in reports {
                read += 1
                let fields: [(String, String?)] = [
                    ("Application Specific Information", report.applicationSpecificInformation),
                    ("Exception Message", report.exception?.message), ("Exception Subtype", report.exception?.subtype),
                    ("Exception Codes", report.exception?.codes), ("Termination Reason", report.termination?.text),
                    ("Termination Details", report.termination?.details?.joined(separator: "\n")),
                ]
                for (field, text) in fields {
                    guard let text = text?.lowercased() else { continue }
                    for words in Self.statedWords where text.contains(words) {
                        #expect(source.contains(words), "\(input): the reader wrote \"\(words)\" into \(field)")
                    }
                }
            }
        }
        #expect(read >= 60)
    }

    /// A reporter's report (KSCrash, Sentry, PLCrashReporter, MetricKit) holds in Application
    /// Specific Information and the termination's text only what its input holds: each line is
    /// (a part of) one of the input's strings. What the reporter records as data (an error, a
    /// handler's crash, a freed exception, a memory termination) is a fact, printed by the writers.
    @Test func reportersCopyTextFieldsFromTheirInput() throws {
        var checked = 0
        for input in Self.inputs {
            guard let reports = try? Self.read(input) else { continue }
            let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(input))
            let strings = Self.strings(in: data)
            for report in reports where [ReportFormat.kscrash, .sentry, .plcrash, .metricKit].contains(report.format) {
                let lines =
                    (report.applicationSpecificInformation ?? "").split(separator: "\n").map(String.init)
                    + [report.termination?.text].compactMap { $0 }
                for line in lines.map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
                    checked += 1
                    // A line of Application Specific Information's object: the key the input gave it, then its text.
                    let labelled = line.firstRange(of: ": ").map { (String(line[..<$0.lowerBound]), String(line[$0.upperBound...])) }
                    let copied =
                        strings.contains { $0.contains(line) }
                        || labelled.map { label, text in strings.contains(label) && strings.contains { $0.contains(text) } } == true
                        // The reporter's diagnosis, under the label its fact names (KSCrash's `CrashDoctor`).
                        || report.facts.reporterDiagnosis?.states(line) == true
                    #expect(copied, "\(input): \"\(line)\" is not text of the input")
                }
            }
        }
        #expect(checked >= 5)
    }

    /// Every string of a JSON document (each line of a string alone too), or the printable runs of a binary one.
    static func strings(in data: Data) -> [String] {
        func collect(_ value: Any, into out: inout [String]) {
            switch value {
            case let s as String: out.append(s)
            case let a as [Any]: for v in a { collect(v, into: &out) }
            case let d as [String: Any]:
                for (k, v) in d {
                    out.append(k)
                    collect(v, into: &out)
                }
            case let n as NSNumber: out.append(n.stringValue)
            default: break
            }
        }
        var out: [String] = []
        // A Sentry envelope is JSON a line.
        let documents = [data] + data.split(separator: UInt8(ascii: "\n")).map { Data($0) }
        for document in documents {
            if let value = try? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed]) { collect(value, into: &out) }
        }
        if out.isEmpty { out.append(String(decoding: data, as: UTF8.self)) }
        return out
    }

    /// What KSCrash records as data beside Apple's fields is a fact of the reporter's record.
    @Test func reporterRecordsAreFacts() throws {
        let handler = try Self.read("thirdparty/kscrash/CrashInHandler.json")
        #expect(handler.count == 2)
        #expect(handler.map { $0.facts.reporterRecord?.isHandlerCrash == true } == [false, true])
        #expect(
            handler[1].renderedLines().map(\.text).joined(separator: "\n").contains("KSCrash: this is the crash of KSCrash's own handler"))

        let zombie = try #require(try Self.read("thirdparty/kscrash/ZombieNSException.json").first)
        #expect(zombie.facts.reporterRecord?.exceptionWasDeallocated == true)
        #expect(zombie.facts.uncaughtException != nil)

        let oom = try #require(try Self.read("thirdparty/kscrash/oom.json").first)
        let figures = try #require(oom.facts.termination?.memoryTermination)
        #expect(figures.contains(MemoryFigure(name: "memory_level", value: "terminal")), "\(figures)")
        #expect(oom.facts.termination?.namespace == "JETSAM")
    }

    /// Facts a reporter records as data are set as facts, with no line quoted (read, not printed).
    @Test func reportersSetFactsFromTheirData() throws {
        let ns = try #require(try Self.read("thirdparty/kscrash/NSException.json").first)
        #expect(ns.facts.uncaughtException?.exception.name == "NSInvalidArgumentException")
        #expect(ns.facts.uncaughtException?.quote == nil)

        let cpp = try #require(try Self.read("thirdparty/kscrash/cpp-exception-v3.json").first)
        #expect(
            cpp.facts.uncaughtException?.exception
                == UncaughtException(language: .cxx, name: "MyException", reason: "Something bad happened..."))
        #expect(cpp.facts.uncaughtException?.quote == nil)

        let deadlock = try #require(try Self.read("thirdparty/kscrash/MainThreadDeadlock.json").first)
        #expect(deadlock.facts.reporterDeadlock?.reporter == "KSCrash")
        // Quoted by KSCrash's own words (its CrashDoctor's diagnosis), not by a sentence the reader wrote.
        #expect(deadlock.facts.reporterDeadlock?.quotes.allSatisfy { $0.contains("CrashDoctor") } == true)
        // CrashDoctor's diagnosis is KSCrash's guess from the frames: typed as the reporter's, shown in
        // Application Specific Information, and stated as no message of the crash.
        let diagnosis = try #require(deadlock.facts.reporterDiagnosis)
        #expect(diagnosis.reporter == "KSCrash" && diagnosis.label == "CrashDoctor")
        #expect(diagnosis.lines.contains { $0.hasPrefix("Main thread deadlocked") }, "\(diagnosis.lines)")
        #expect(deadlock.applicationSpecificInformation?.contains("CrashDoctor: Main thread deadlocked") == true)
        #expect(!deadlock.facts.statedMessages.contains { $0.quote.hasPrefix("CrashDoctor") }, "\(deadlock.facts.statedMessages)")

        let crashlytics = try #require(
            try Self.read("pasted/crashlytics__firebase-ios-sdk-10159_unrecognized-selector_excerpt.txt").first)
        #expect(crashlytics.facts.uncaughtException?.exception.name == "NSInvalidArgumentException")
        #expect(crashlytics.facts.uncaughtException?.quote == nil)

        let console = try #require(try Self.read("debugger/objc-exception.console.txt").first)
        #expect(
            console.facts.uncaughtException?.exception
                == UncaughtException(
                    language: .objectiveC, name: "CAProfileCorruptedException", reason: "Profile legacy-profile is missing or corrupted"))
        #expect(console.facts.uncaughtException?.hasBacktrace == true)
    }

    /// Apple's own layouts state facts in lines: the facts are read from them once, with the line kept to quote.
    @Test func appleLayoutsStateFactsInLines() throws {
        let watchdog = try #require(try Self.read("reports/watchdog.crash").first)
        #expect(watchdog.facts.termination?.namespace == "FRONTBOARD")
        #expect(watchdog.facts.termination?.code == 0x8bad_f00d)
        let ipsWatchdog = try #require(try Self.read("reports/watchdog.ips").first)
        #expect(ipsWatchdog.facts.termination == watchdog.facts.termination)

        let nullDeref = try #require(try Self.read("reports/null-deref.crash").first)
        let fault = try #require(nullDeref.facts.exception?.fault)
        #expect(nullDeref.facts.exception?.machType == "EXC_BAD_ACCESS")
        #expect(nullDeref.facts.exception?.signal == "SIGSEGV")
        #expect(fault.name == "KERN_INVALID_ADDRESS")
        #expect(nullDeref.facts.platform.platform == .iOS)
        #expect(nullDeref.facts.platform.architecture?.name.hasPrefix("arm64") == true)
    }

    /// One crash in every layout that carries it gives the same facts (their quotes aside: each
    /// layout states them in its own words; and the VM region, which only `.ips` carries here).
    /// The project's own crashes, as Apple wrote them (`.crash`, `.ips`) and as
    /// `Fixtures/tools/thirdparty.py` wrote them for KSCrash and Sentry (exported event and the
    /// SDK's envelope). (The MetricKit fixture of swift-trap is another device and OS, and
    /// MetricKit keeps only the first exception code: its facts are compared where it carries
    /// them in `oneUncaughtExceptionInEveryLayoutGivesTheSameFact`.)
    @Test(arguments: [
        [
            "reports/null-deref.ips", "reports/null-deref.crash", "thirdparty/own/null-deref.kscrash.json",
            "thirdparty/own/null-deref.sentry.json", "thirdparty/own/null-deref.sentry.envelope",
        ],
        [
            "reports/swift-trap.ips", "reports/swift-trap.crash", "thirdparty/own/swift-trap.kscrash.json",
            "thirdparty/own/swift-trap.sentry.json", "thirdparty/own/swift-trap.sentry.envelope",
        ],
    ])
    func oneCrashInEveryLayoutGivesTheSameFacts(_ layouts: [String]) throws {
        let first = try #require(try Self.read(layouts[0]).first).facts.withoutQuotes
        #expect(first.exception != nil && first.termination != nil && first.platform.platform != nil)
        for layout in layouts.dropFirst() {
            let facts = try #require(try Self.read(layout).first).facts.withoutQuotes
            var expected = first
            if facts.exception?.vmRegion == nil { expected.exception?.vmRegion = nil }
            #expect(facts == expected, "\(layout) against \(layouts[0])")
        }
    }

    // MARK: - One uncaught exception in every layout

    static let exceptionName = "CAProfileCorruptedException"
    static let exceptionReason = "Profile legacy-profile is missing or corrupted"
    /// The line iOS writes for it in Application Specific Information (CoreFoundation's `asi` key).
    static var libobjcLine: String {
        "*** Terminating app due to uncaught exception '\(exceptionName)', reason: '\(exceptionReason)'"
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent(relative), encoding: .utf8)
    }

    static func json(_ relative: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent(relative))) as? [String: Any])
    }

    static func parse(_ text: String, _ name: String) throws -> CrashReport {
        try #require(try CrashReport.parseAll(data: Data(text.utf8), path: name).first)
    }

    static func parse(json: [String: Any], _ name: String) throws -> CrashReport {
        try #require(try CrashReport.parseAll(data: JSONSerialization.data(withJSONObject: json), path: name).first)
    }

    /// The fixture app's uncaught Objective-C exception (`reports/objc-exception.*`, whose console
    /// and LLDB output are `debugger/objc-exception.*`, and whose MetricKit diagnostic carries the
    /// exception's typed keys), in every layout that carries it: `.crash` and `.ips` with the line
    /// iOS writes for it, MetricKit, KSCrash and Sentry (the fixture's third-party forms with the
    /// reporter's exception keys), the console, LLDB. All give one uncaught-exception fact, and
    /// the Mach exception wherever the layout has one.
    @Test func oneUncaughtExceptionInEveryLayoutGivesTheSameFact() throws {
        var reports: [(String, CrashReport)] = []
        let crash = try Self.text("reports/objc-exception.crash").replacingOccurrences(
            of: "Application Specific Information:\nabort() called",
            with: "Application Specific Information:\n\(Self.libobjcLine)\nabort() called")
        #expect(crash.contains(Self.libobjcLine))
        reports.append((".crash", try Self.parse(crash, "objc.crash")))
        let ips = try Self.text("reports/objc-exception.ips").replacingOccurrences(
            of: #""asi" : {"libsystem_c.dylib":["abort() called"]}"#,
            with: #""asi" : {"CoreFoundation":["\#(Self.libobjcLine)"],"libsystem_c.dylib":["abort() called"]}"#)
        #expect(ips.contains(Self.libobjcLine))
        reports.append((".ips", try Self.parse(ips, "objc.ips")))
        reports.append(("MetricKit", try #require(try Self.read("metrickit/objc-exception.metrickit-diagnostic.json").first)))

        var kscrash = try Self.json("thirdparty/own/null-deref.kscrash.json")
        var crashPart = try #require(kscrash["crash"] as? [String: Any])
        crashPart["error"] =
            [
                "type": "nsexception", "address": 0, "reason": Self.exceptionReason,
                "nsexception": ["name": Self.exceptionName, "reason": Self.exceptionReason],
                "mach": ["exception": 10, "exception_name": "EXC_CRASH", "code": 0, "subcode": 0],
                "signal": ["signal": 6, "name": "SIGABRT", "code": 0],
            ] as [String: Any]
        kscrash["crash"] = crashPart
        reports.append(("KSCrash", try Self.parse(json: kscrash, "objc.kscrash.json")))

        var sentry = try Self.json("thirdparty/own/null-deref.sentry.json")
        sentry["exception"] = [
            "values": [
                [
                    "type": Self.exceptionName, "value": Self.exceptionReason, "thread_id": 0,
                    "mechanism": [
                        "type": "nsexception", "handled": false,
                        "meta": [
                            "mach_exception": ["exception": 10, "code": 0, "subcode": 0, "name": "EXC_CRASH"],
                            "signal": ["number": 6, "code": 0, "name": "SIGABRT"],
                        ] as [String: Any],
                    ] as [String: Any],
                ] as [String: Any]
            ]
        ]
        reports.append(("Sentry", try Self.parse(json: sentry, "objc.sentry.json")))
        reports.append(("console", try #require(try Self.read("debugger/objc-exception.console.txt").first)))
        reports.append(("LLDB", try #require(try Self.read("debugger/objc-exception.lldb.txt").first)))

        let expected = UncaughtException(language: .objectiveC, name: Self.exceptionName, reason: Self.exceptionReason)
        for (layout, report) in reports {
            #expect(report.facts.uncaughtException?.exception == expected, "\(layout)")
            #expect(
                report.facts.uncaughtException?.hasBacktrace == true || layout == "MetricKit" || layout == "Sentry" || layout == "KSCrash",
                "\(layout)")
            if let exception = report.facts.exception, exception.machType != nil || exception.signal != nil {
                #expect(exception.signal == "SIGABRT", "\(layout)")
                #expect(exception.machType == nil || exception.machType == "EXC_CRASH", "\(layout)")
            }
            // Nothing a reader wrote: the quoted line, when there is one, is the input's own.
            if let quote = report.facts.uncaughtException?.quote { #expect(quote.hasSuffix(Self.libobjcLine), "\(layout)") }
        }
    }
}

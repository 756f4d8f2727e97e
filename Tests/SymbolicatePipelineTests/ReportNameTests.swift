import Foundation
import SymbolicateCrashReport
import SymbolicatePipeline
import SymbolicateTestSupport
import Testing

/// Names the report itself gives are printed as Apple's tools print them, in every output:
/// sentry-cocoa's real SentryCrash reports name their app frames with mangled Swift
/// (`$s20sentry_ios_cocoapods14ViewControllerC10causeCrashyyypF`, `_T08tadadgsf5TestyC5crashyyF`),
/// where Apple's report says `ViewController.causeCrash(_:)`.
@Suite struct ReportNameTests {
    static let folder = TestPaths.fixtures.appendingPathComponent("thirdparty/sentry-cocoa")
    static let reports = [
        "sentry-ios-cocoapods-report-0000000053800000.json", "fatal-error-binary-images-iphone.json",
        "crash-report-without-device-context.json", "crash-report-legacy-storage-info.json",
        "fatal-error-notable-addresses.json",
    ]

    /// A Swift mangling anywhere in a text: `$s`/`$S`/`$e` or `_T0` followed by a length.
    static func mangledSwift(in text: String) -> [String] {
        text.matches(of: /(?:\$[sSe]|_T0)[0-9]+[A-Za-z_][A-Za-z0-9_]*/).map { String($0.output) }
    }

    @Test(arguments: reports)
    func noMangledSwiftNameInTextHeadlineOrExplain(report: String) throws {
        let path = Self.folder.appendingPathComponent(report).path
        let raw = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!Self.mangledSwift(in: raw).isEmpty, "the fixture carries no mangled Swift name")

        let text = ReportRequest(report: .file(path), debugFiles: [], headline: true).run()
        #expect(text.status == .success)
        let output = try #require(text.standardOutput)
        #expect(Self.mangledSwift(in: output).isEmpty, "\(Self.mangledSwift(in: output))")
        let messages = text.messages.map { $0.text(tool: "symbolicate") }.joined()
        #expect(Self.mangledSwift(in: messages).isEmpty)

        let explain = ExplainRequest(subject: .report(.file(path), debugFiles: [])).run()
        #expect(explain.status == .success)
        let explained = try #require(explain.standardOutput)
        #expect(Self.mangledSwift(in: explained).isEmpty, "\(Self.mangledSwift(in: explained))")
    }

    @Test func theCrashingFrameReadsAsApplesReportDoes() throws {
        let path = Self.folder.appendingPathComponent("sentry-ios-cocoapods-report-0000000053800000.json").path
        let response = ReportRequest(report: .file(path), debugFiles: [], headline: true).run()
        let output = try #require(response.standardOutput)
        #expect(output.contains("ViewController.causeCrash(_:) + 222"))
        #expect(output.contains("@objc ViewController.causeCrash(_:) + "))
        let frames = try #require(response.reports.first?.report).allBacktraces.flatMap(\.frames)
        let frame = try #require(frames.first { $0.symbol == "ViewController.causeCrash(_:)" })
        // The report's own text stays with the frame, for JSON and for the writers.
        #expect(frame.mangledSymbol == "$s20sentry_ios_cocoapods14ViewControllerC10causeCrashyyypF")
        #expect(frame.nameSource == .report)
        // Objective-C and C names are left as the report gave them.
        #expect(frames.contains { $0.symbol == "-[UIApplication sendEvent:]" && $0.mangledSymbol == nil })
    }

    /// `--format json` prints the demangled name and keeps the report's in `mangledSymbol`;
    /// `--format ips` writes the reporter's own JSON back with its bytes untouched.
    @Test func jsonKeepsTheMangledNameAndTheReportersJSONIsUntouched() throws {
        let path = Self.folder.appendingPathComponent("crash-report-without-device-context.json").path
        let json = ReportRequest(report: .file(path), debugFiles: [], format: .json).run()
        let output = try #require(json.standardOutput)
        #expect(output.contains(#""mangledSymbol" : "$s9iOS_Swift20ErrorsViewControllerC5crashyySo8UIButtonCF""#))
        #expect(output.contains(#""symbol" : "ErrorsViewController.crash(_:)""#))
        let ips = ReportRequest(report: .file(path), debugFiles: [], format: .ips).run()
        let raw = try String(contentsOfFile: path, encoding: .utf8)
        #expect(ips.standardOutput?.contains("$s9iOS_Swift20ErrorsViewControllerC5crashyySo8UIButtonCF") == true)
        #expect(Self.mangledSwift(in: ips.standardOutput ?? "").count == Self.mangledSwift(in: raw).count)
    }

    /// A text report's frame line naming a mangled function is printed with the demangled name,
    /// every other byte of the line kept; C++ blocks and Rust names too.
    @Test func textReportLinesNameTheDemangledFunction() throws {
        let report = """
            Incident Identifier: 7D1F6E4A-1B2C-4D3E-8F90-112233445566
            Hardware Model:      iPhone14,2
            Process:             MyApp [123]
            Identifier:          com.example.MyApp
            Version:             1.0 (1)
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 17.0 (21A329)
            Exception Type:  EXC_BREAKPOINT (SIGTRAP)
            Triggered by Thread:  0

            Thread 0 Crashed:
            0   MyApp                         	0x0000000100a40010 $s5MyApp4MainV3runyyFZ + 16
            1   MyApp                         	0x0000000100a40100 ___Z9scheduleri_block_invoke + 8
            2   MyApp                         	0x0000000100a40200 _ZN4core9panicking9panic_fmt17h0123456789abcdefE + 40
            3   MyApp                         	0x0000000100a40300 _RNvNtCs1234_4core9panicking5panic + 4
            4   MyApp                         	0x0000000100a40400 -[AppDelegate application:didFinishLaunchingWithOptions:] + 12
            5   MyApp                         	0x0000000100a40500 _$LT$core..panic..unwind_safe..AssertUnwindSafe$LT$F$GT$$u20$as$u20$core..ops..function..FnOnce$LT$$LP$$RP$$GT$$GT$::call_once::hbc653bab54913889 + 20

            Binary Images:
            0x100a3c000 - 0x100a4ffff MyApp arm64  <0123456789abcdef0123456789abcdef> /private/var/containers/Bundle/Application/X/MyApp.app/MyApp
            """
        let response = ReportRequest(report: .bytes(Data(report.utf8), name: "mangled.crash"), debugFiles: []).run()
        let output = try #require(response.standardOutput)
        #expect(output.contains("0   MyApp                         \t0x0000000100a40010 static Main.run() + 16\n"))
        #expect(output.contains("0x0000000100a40100 invocation function for block in scheduler(int) + 8\n"))
        #expect(output.contains("0x0000000100a40200 core::panicking::panic_fmt + 40\n"))
        #expect(output.contains("0x0000000100a40300 core::panicking::panic + 4\n"))
        #expect(output.contains("-[AppDelegate application:didFinishLaunchingWithOptions:] + 12"))
        // A Rust frame as Apple's report prints it (read as C++: escapes and hash left in).
        #expect(
            output.contains(
                "0x0000000100a40500 <core::panic::unwind_safe::AssertUnwindSafe<F> as core::ops::function::FnOnce<()>>::call_once + 20\n"))
        let headline = ReportRequest(report: .bytes(Data(report.utf8), name: "mangled.crash"), debugFiles: [], headline: true).run()
        #expect(headline.standardOutput?.contains("static Main.run()") == true)
        #expect(Self.mangledSwift(in: headline.standardOutput ?? "").isEmpty)
    }

    /// Frames named by a placeholder are said to be what they are: one note per kind, on the
    /// line of the first such frame, after the report is read (and again after symbolication).
    @Test func placeholderNamesAreSaidToBeWhatTheyAre() throws {
        let report = """
            Incident Identifier: 7D1F6E4A-1B2C-4D3E-8F90-112233445566
            Process:             MyApp [123]
            Identifier:          com.example.MyApp
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 17.0 (21A329)
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Triggered by Thread:  0

            Thread 0 Crashed:
            0   libsystem_kernel.dylib        	0x00000001e0a40010 <redacted> + 16
            1   libsystem_kernel.dylib        	0x00000001e0a40100 <redacted> + 8
            2   MyApp                         	0x0000000100a40200 <deduplicated_symbol> + 40
            3   MyApp                         	0x0000000100a40300 __hidden#42_ + 4
            4   MyApp                         	0x0000000100a40400 main + 12

            Binary Images:
            0x100a3c000 - 0x100a4ffff MyApp arm64  <0123456789abcdef0123456789abcdef> /private/var/containers/Bundle/Application/X/MyApp.app/MyApp
            0x1e0a3c000 - 0x1e0a4ffff libsystem_kernel.dylib arm64e  <1123456789abcdef0123456789abcdef> /usr/lib/system/libsystem_kernel.dylib
            """
        let response = ReportRequest(report: .bytes(Data(report.utf8), name: "placeholders.crash"), debugFiles: []).run()
        // The placeholder notes (the note saying where dSYMs are is not one of them).
        let notes = response.messages.map { $0.text(tool: "symbolicate") }.filter {
            $0.contains(": note: ") && !$0.contains("App Store Connect")
        }
        #expect(notes.count == 3, "\(notes)")
        #expect(notes.contains { $0.contains("placeholders.crash:10: note: 2 frames are named <redacted>: Apple removed the name") })
        #expect(notes.contains { $0.contains("placeholders.crash:12: note: 1 frame is named <deduplicated_symbol>: the linker folded") })
        #expect(notes.contains { $0.contains("placeholders.crash:13: note: 1 frame is named __hidden#…_: the build came from bitcode") })
        // The frames themselves are printed as the report gave them, and are worth naming.
        #expect(response.standardOutput?.contains("0x00000001e0a40010 <redacted> + 16\n") == true)
        let frames = try #require(response.reports.first?.report.threads.first?.frames)
        #expect(frames.prefix(4).allSatisfy(\.isUnsymbolicated) && !frames[4].isUnsymbolicated)
    }

    /// A symbol-table answer for an address past the end of the nearest symbol's section
    /// (CrashApp's `__stubs`, after `__text`'s last symbol) is marked as a guess in text and
    /// JSON; an answer inside the section is not.
    @Test func anImplausibleSymbolTableOffsetIsMarkedAsAGuess() throws {
        let report = """
            Incident Identifier: 7D1F6E4A-1B2C-4D3E-8F90-112233445566
            Process:             CrashApp [123]
            Identifier:          com.example.CrashApp
            Code Type:           ARM-64 (Native)
            OS Version:          iPhone OS 17.0 (21A329)
            Exception Type:  EXC_BAD_ACCESS (SIGSEGV)
            Triggered by Thread:  0

            Thread 0 Crashed:
            0   CrashApp                      \t0x0000000100004b70 0x100000000 + 19312
            1   CrashApp                      \t0x0000000100004b69 0x100000000 + 19305

            Binary Images:
            0x100000000 - 0x10000ffff CrashApp arm64  <4c4c443b55553144a1e9455154cffd57> /private/var/containers/Bundle/Application/X/CrashApp.app/CrashApp
            """
        let binary = TestPaths.fixtures.appendingPathComponent("bin/CrashApp").path
        let text = ReportRequest(report: .bytes(Data(report.utf8), name: "guess.crash"), debugFiles: [binary]).run()
        let output = try #require(text.standardOutput)
        #expect(output.contains("0x0000000100004b70 swift_slowDealloc + 8 [guess]\n"), "\(output)")
        #expect(output.contains("0x0000000100004b69 swift_slowDealloc + 1\n"))
        let json = ReportRequest(report: .bytes(Data(report.utf8), name: "guess.crash"), debugFiles: [binary], format: .json).run()
        #expect(json.standardOutput?.components(separatedBy: #""guess" : true"#).count == 2)
    }
}

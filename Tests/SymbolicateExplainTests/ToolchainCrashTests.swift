import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// A compiler or another LLVM-based build tool that crashed while building (issue 48: any crash
/// text a developer holds). The driver's `command failed due to signal`, LLVM's bug-report banner
/// and its `Stack dump:` say the crash is the toolchain's: explain says so, with the signal, what
/// the tool was doing and where in the code, instead of reading the tool's frames as the app's.
@Suite struct ToolchainCrashTests {
    private func diagnoseToolchain(_ name: String) throws -> (CrashReport, Diagnosis) {
        try diagnoseFile(TestPaths.fixtures.appendingPathComponent("toolchain/" + name))
    }

    /// https://github.com/mxcl/AppUpdater/issues/16
    @Test func theDriversLineNamesTheSignal() throws {
        let (report, diagnosis) = try diagnoseToolchain("appupdater-16_compile-command-signal-11_excerpt.txt")
        let crash = try #require(report.facts.toolchainCrash)
        #expect(crash.statement == "error: compile command failed due to signal 11 (use -v to see invocation)")
        #expect(crash.signal == "SIGSEGV" && crash.line == 1)
        #expect(diagnosis.category == .toolchainCrash)
        #expect(diagnosis.headline.contains("compile command failed due to signal 11"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("SIGSEGV"))
    }

    /// LLVM's dump alone, with what the compiler was doing when it crashed.
    /// https://github.com/swiftlang/swift/issues/61550
    @Test func theDumpsLastStepIsTheHeadline() throws {
        let (report, diagnosis) = try diagnoseToolchain("swift-61550_silgen-stack-dump_excerpt.txt")
        let crash = try #require(report.facts.toolchainCrash)
        #expect(crash.statesOnlyTheDump)
        #expect(crash.activities.count == 4, "\(crash.activities)")
        #expect(crash.activities.last == "While evaluating request ParseAbstractFunctionBodyRequest(AXSwift.(file).AXError extension._)")
        #expect(diagnosis.category == .toolchainCrash)
        #expect(diagnosis.headline.contains("ParseAbstractFunctionBodyRequest"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("Stack dump without symbol names"))
    }

    /// Xcode's build log of a crashed frontend, with the shell's signal words before it.
    /// https://github.com/indragiek/SwiftAutoLayout/issues/8
    @Test func theFrontendsCrashInABuildLog() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout7/841-swift-compiler-crash.txt")
        let crash = try #require(report.facts.toolchainCrash)
        #expect(crash.tool == "swift-frontend" && crash.signal == "SIGSEGV")
        #expect(diagnosis.category == .toolchainCrash)
        #expect(diagnosis.headline.contains("swift frontend command failed due to signal"), "\(diagnosis.headline)")
    }

    /// clang's driver for its frontend, with the shell's words for the signal above it.
    /// https://github.com/dotnet/runtime/issues/99150
    @Test func clangsDriverNamesItsFrontend() throws {
        let diagnosis = try diagnoseText(
            "clang: error: unable to execute command: Segmentation fault: 11\nclang: error: clang frontend command failed due to signal (use -v to see invocation)\n"
        )
        #expect(diagnosis.category == .toolchainCrash)
        #expect(diagnosis.headline.contains("clang (SIGSEGV)"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("clang frontend command failed due to signal"), "\(diagnosis.headline)")
    }

    @Test func linesThatSayAToolCrashed() {
        #expect(
            ToolchainCrashFact.statesCrash("clang: error: clang frontend command failed due to signal (use -v to see invocation)")?.tool
                == "clang")
        #expect(
            ToolchainCrashFact.statesCrash("<unknown>:0: error: compile command failed due to signal 6 (use -v to see invocation)")?.signal
                == "SIGABRT")
        #expect(
            ToolchainCrashFact.statesCrash(
                "PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.")
                != nil)
        // A build that failed on the code's own errors is no crash.
        #expect(ToolchainCrashFact.statesCrash("Command SwiftCompile failed with a nonzero exit code") == nil)
        #expect(
            ToolchainCrashFact.programArguments("0.\tProgram arguments: /usr/bin/swift-frontend -frontend -c a.swift") == "swift-frontend")
        #expect(
            ToolchainCrashFact.place(in: "While type-checking declaration 0x12a8 (at /Users/me/App/Model.swift:12:8)")
                == "/Users/me/App/Model.swift:12:8")
        #expect(
            ToolchainCrashFact.place(in: "While evaluating request TypeCheckSourceFileRequest(source_file \"/Users/me/App/Model.swift\")")
                == "/Users/me/App/Model.swift")
    }

    /// LLVM's own handler above the signal trampoline (`llvm::sys::PrintStackTrace`,
    /// `SignalHandler(int)`, `_sigtramp` twice) is not where the compiler crashed.
    /// https://github.com/stephencelis/SQLite.swift/issues/173
    @Test func theToolsSignalHandlerIsNotTheCrash() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1943-swift-compiler-crash.txt")
        let thread = try #require(report.crashedThread)
        #expect(thread.frames[CrashReport.pastSignalHandler(thread)].symbol == "swift::serialization::Serializer::writeAllDeclsAndTypes()")
        #expect(diagnosis.headline.contains("writeAllDeclsAndTypes"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("called from"), "\(diagnosis.headline)")
    }
}

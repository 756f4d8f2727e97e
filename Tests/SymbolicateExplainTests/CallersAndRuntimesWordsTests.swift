import Foundation
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Where a library's check was called from, runtimes' last words in layouts the readers had not
/// met (Boost.Stacktrace's frames, libstdc++'s and libobjc's words, a test runner's negative
/// status, dyld's stub for a missing weak symbol), and the debugger's and dyld's words for a
/// failure the process goes on after (issue 48). Each text is an excerpt of a real public post
/// (its URL above the test).
@Suite struct CallersAndRuntimesWordsTests {
    static func refusal(_ text: String) -> String? {
        do {
            _ = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
            return nil
        } catch {
            return error.kind == .notACrashReport ? error.description : nil
        }
    }

    static func causeFrames(_ diagnosis: Diagnosis) -> [String] { diagnosis.causes.flatMap { $0.frames ?? [] } }

    // MARK: - The call that broke a library's rule

    /// The stack protector's check is named with the function that called it (gdb's `bt`, its
    /// arguments wrapped over lines). https://github.com/archiecobbs/s3backer/issues/18
    @Test func theStackProtectorsCallerIsNamed() throws {
        let diagnosis = try diagnoseText(
            """
            Program received signal SIGABRT, Aborted.
            0x00007fff8315e3d6 in __kill ()
            (gdb) bt
            #0  0x00007fff8315e3d6 in __kill ()
            #1  0x00007fff831fe913 in __abort ()
            #2  0x00007fff831e2ff0 in __stack_chk_fail ()
            #3  0x000000010000cb66 in http_io_get_auth (buf=0x7fff5fbf1960 'A' <repeats 27 
            times>, "=", bufsiz=200, config=0x10001aca0, method=0x100014a5f "HEAD", 
            ctype=0x0, md5=0x0, date=0x7fff5fbf1a30 "Tue, 21 Sep 2010 22:23:00 GMT", 
            headers=0x0, resource=0x7fff5fbf17c9 "/00000000") at http_io.c:1530
            #4  0x0000000100009b1f in http_io_detect_sizes (s3b=0x100506220, 
            file_sizep=0x7fff5fbf1c08, block_sizep=0x7fff5fbf1c3c) at http_io.c:664
            """)
        let frames = Self.causeFrames(diagnosis)
        #expect(frames.contains { $0.contains("__stack_chk_fail") }, "\(frames)")
        #expect(frames.contains { $0.contains("http_io_get_auth") }, "\(frames)")
    }

    /// The GPU used in the background: the driver's stop is a known rule, and the call is the
    /// app's frame printing its source, not the driver's frames between (modules named without
    /// a source file beside a module that prints its own are not the app's).
    /// https://github.com/mapbox/mapbox-gl-native/issues/1460
    @Test func theGPUsBackgroundKillNamesTheAppsDrawCall() throws {
        let text = """
            Thread : Crashed: Map
            0  libGPUSupportMercury.dylib     0x2e21e8a6 gpus_ReturnNotPermittedKillClient + 9
            1  libGPUSupportMercury.dylib     0x2e21f363 gpusSubmitDataBuffers + 110
            2  IMGSGX543GLDriver              0x25eea7c1 glrSGXRenderVertexArray + 1028
            3  GLEngine                       0x29e7571d glDrawArrays_ES2Exec + 204
            4  Embark                         0x00393a39 mbgl::Source::drawClippingMasks(mbgl::Painter&) (source.cpp:189)
            5  Embark                         0x00390173 mbgl::MapContext::render() (map_context.cpp:228)
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
        #expect(report.crashedAppLine?.function?.contains("drawClippingMasks") == true, "\(String(describing: report.crashedAppLine))")
        let diagnosis = diagnose(report)
        #expect(diagnosis.throwSite == "opengles.background-gpu", "\(diagnosis.headline)")
        let frames = Self.causeFrames(diagnosis)
        #expect(frames.contains { $0.contains("drawClippingMasks") }, "\(frames)")
        #expect(!frames.contains { $0.contains("glrSGXRenderVertexArray") }, "\(frames)")
    }

    /// An `.ips` body's members pasted with the crashed thread's frames one object a line: the
    /// frames are read, and the stack protector's caller is named.
    /// https://github.com/netdata/netdata/issues/22552
    @Test func anIPSFragmentsFrameLinesAreRead() throws {
        let text = """
            "exception" : {"codes":"0x0000000000000000, 0x0000000000000000","rawCodes":[0,0],"type":"EXC_CRASH","signal":"SIGABRT"},
            "termination" : {"flags":0,"code":6,"namespace":"SIGNAL","indicator":"Abort trap: 6","byProc":"netdata","byPid":72719},
            "asi" : {"libsystem_c.dylib":["stack buffer overflow"]},

            ...

            "id":29393209,"name":"P[macos]","threadState":{ ... },
            "frames":[{"imageOffset":38376,"symbol":"__pthread_kill","symbolLocation":8,"imageIndex":89},
            {"imageOffset":26840,"symbol":"pthread_kill","symbolLocation":296,"imageIndex":92},
            {"imageOffset":493288,"symbol":"__abort","symbolLocation":152,"imageIndex":93},
            {"imageOffset":493504,"symbol":"__stack_chk_fail","symbolLocation":96,"imageIndex":93},
            {"imageOffset":8366736,"symbol":"do_macos_mach_smi","symbolLocation":2628,"imageIndex":0},
            {"imageOffset":8348624,"symbol":"macos_main","symbolLocation":368,"imageIndex":0}]}]
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
        #expect(report.crashedThread?.frames.count == 6)
        #expect(report.warnings.contains { $0.message.contains("a thread's frames") })
        let frames = Self.causeFrames(diagnose(report))
        #expect(frames.contains { $0.contains("do_macos_mach_smi") }, "\(frames)")
    }

    /// Go's runtime linked into the app is library code: its caller is the app's line.
    /// https://github.com/golang/go/issues/20392
    @Test func goRuntimeFramesGiveWayToTheirCaller() throws {
        let diagnosis = try diagnoseText(
            """
            Crashed: com.apple.main-thread
            0  testapp-swift                  0x1000950b8 runtime.raiseproc + 24
            1  testapp-swift                  0x1000d1b68 CrashPanic + 12
            2  testapp-swift                  0x100048798 ViewController.buttonUp(Any) -> () (ViewController.swift:85)
            """)
        #expect(diagnosis.headline.contains("CrashPanic"), "\(diagnosis.headline)")
    }

    // MARK: - Runtimes' last words

    /// libstdc++'s spelling of a pure virtual call, above Boost.Stacktrace's `N# name in module`
    /// frames. https://github.com/netheril96/securefs/issues/144
    @Test func anUnprefixedPureVirtualCallAndBoostFramesAreRead() throws {
        let text = """
            [Info] [0x70000673c000] [2022-11-03 06:20:06.379157000 UTC] [void *securefs::lite::init(struct fuse_conn_info *):117]    init
            Pure virtual method called.
            Stack trace:

             0# __cxa_pure_virtual in /Users/admin/Downloads/./securefs
             1# CryptoPP::BlockTransformation::AdvancedProcessBlocks(unsigned char const*, unsigned char const*, unsigned char*, unsigned long, unsigned int) const in /Users/admin/Downloads/./securefs
             2# 0x00007FF80E5A2D1D in /usr/lib/system/libsystem_c.dylib
             3# main at /src/main.cpp:93
            """
        let report = try CrashReport.parse(data: Data(text.utf8), path: "pasted.txt")
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 4)
        #expect(frames[0].symbol == "__cxa_pure_virtual" && frames[0].imageName == "securefs")
        #expect(frames[2].address == 0x7FF8_0E5A_2D1D && frames[2].imageName == "libsystem_c.dylib")
        #expect(frames[3].symbol == "main" && frames[3].sourceFile == "/src/main.cpp" && frames[3].sourceLine == 93)
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.contains("Pure virtual method called"), "\(diagnosis.headline)")
        // Not a frame: a count in prose, a Markdown heading's number.
        #expect(PastedFrameGrammar.parse("1# of 3 tries", reportLine: 1) == nil)
    }

    /// libobjc's stop of a `fork()` child (after a Ruby server's log line).
    /// https://github.com/seuros/action_mcp/issues/112
    @Test func libobjcsForkSafetyStopIsRead() throws {
        let diagnosis = try diagnoseText(
            """
            I, [2025-07-03T13:46:22.838085 #81052]  INFO -- : Processing by ActionMCP::ApplicationController#create as JSON
            objc[81052]: +[__NSCFConstantString initialize] may have been in progress in another thread when fork() was called.
            objc[81052]: +[__NSCFConstantString initialize] may have been in progress in another thread when fork() was called. We cannot safely call it or ignore it in the fork() child process. Crashing instead. Set a breakpoint on objc_initializeAfterForkError to debug.
            """)
        #expect(diagnosis.headline.contains("fork() child process"), "\(diagnosis.headline)")
    }

    /// UBSan's check is a stop when the runner says the process died of a signal by its negative
    /// status (Python's subprocess convention). https://github.com/Exiv2/exiv2/issues/2117
    @Test func aNegativeStatusIsTheSignal() throws {
        let text = """
            1: [ERROR] Failed to execute: ['/Users/msa/coad/ImageMetadata/exiv2/build/bin/exiv2', '-vVg', 'nls']
            1: [ERROR] The asserted return code is [0], but got -6
            1: [INFO] OUTPUT:
            1: /opt/local/libexec/llvm-12/bin/../include/c++/v1/regex:5815:30: runtime error: member call on address 0x602000000110 which does not point to an object of type 'std::__node<char>'
            """
        #expect(Self.refusal(text) == nil)
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("runtime error: member call"), "\(diagnosis.headline)")
        #expect(SignalLine.negativeStatus(in: "returncode=-11") == "SIGSEGV")
        #expect(SignalLine.negativeStatus(in: "exit code -1") == nil)
        #expect(SignalLine.negativeStatus(in: "return code is 6") == nil)
    }

    /// dyld's stub for a weakly linked symbol the OS lacks: the frame below it made the call.
    /// https://github.com/keiwando/nativefileso/issues/9
    @Test func dyldsMissingSymbolStubNamesItsCaller() throws {
        let diagnosis = try diagnoseText(
            """
            Exception Type:  EXC_CRASH (SIGABRT)
            Exception Codes: 0x0000000000000000, 0x0000000000000000
            Termination Reason: DYLD 4 Symbol missing
            missing symbol called
            (terminated at launch; ignore backtrace)

            Triggered by Thread:  0

            Thread 0 Crashed::  Dispatch queue: com.apple.main-thread
            0   dyld                          \t       0x10979cb3e __abort_with_payload + 10
            1   dyld                          \t       0x1097b5bb7 abort_with_payload_wrapper_internal + 82
            2   dyld                          \t       0x1097b5be9 abort_with_payload + 9
            3   dyld_sim                      \t       0x100d8e3f8 abort_with_payload + 26
            4   dyld_sim                      \t       0x100d4e15b dyld4::halt(char const*) + 375
            5   dyld_sim                      \t       0x100d66402 dyld4::APIs::_dyld_missing_symbol_abort() + 34
            6   UnityFramework                \t       0x11744dd39 NativeFileSOiOS__cctor_m4F8CB070AED3F5E8AAA7A98984E304C87B307A3A + 73
            """)
        #expect(diagnosis.headline.contains("missing symbol called"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("NativeFileSOiOS__cctor"), "\(diagnosis.headline)")
    }

    /// macOS 10.15's `Termination Reason: DYLD, [0x4] Symbol missing` and its `Dyld Error
    /// Message:` heading. https://github.com/Fonta1n3/FullyNoded/issues/118
    @Test func aCatalinaReportsDyldErrorMessageIsRead() throws {
        let diagnosis = try diagnoseText(
            """
            Process:               FullyNoded [719]
            Code Type:             X86-64 (Native)
            OS Version:            Mac OS X 10.15 (19A471t)

            Crashed Thread:        0

            Exception Type:        EXC_CRASH (SIGABRT)
            Exception Codes:       0x0000000000000000, 0x0000000000000000
            Exception Note:        EXC_CORPSE_NOTIFY

            Termination Reason:    DYLD, [0x4] Symbol missing

            Application Specific Information:
            dyld: launch, loading dependent libraries

            Dyld Error Message:
              Symbol not found: _$s2IDs12IdentifiablePTl
              Referenced from: /private/var/folders/*/FullyNoded.app/Contents/MacOS/../Frameworks/LibWally.framework/LibWally (which was built for Mac OS X 13.6)
              Expected in: /usr/lib/swift/libswiftCore.dylib
            """)
        #expect(diagnosis.category == .missingLibrary, "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Symbol not found: _$s2IDs12IdentifiablePTl"), "\(diagnosis.headline)")
    }

    // MARK: - Survived: refused

    /// LLDB's expression faulted and was unwound: the debugger's expression stopped, not the app.
    /// https://github.com/facebook/chisel/issues/46
    @Test func aFaultedDebuggerExpressionIsNoCrash() {
        let refused = Self.refusal(
            """
            error: Execution was interrupted, reason: EXC_BAD_ACCESS (code=1, address=0x10).
            The process has been returned to the state before expression evaluation.
            """)
        #expect(refused?.contains("keeps running after") == true, "\(refused ?? "read")")
        // A playground's code is the expression: LLDB leaves it where it stopped, and that is the
        // program's crash. https://github.com/solvespace/solvespace/issues/369
        let playground = """
            Playground execution failed:

            error: Execution was interrupted, reason: EXC_BAD_ACCESS (code=1, address=0x14eee).
            The process has been left at the point where it was interrupted, use "thread return -x" to return to the state before expression evaluation.
            """
        #expect(Self.refusal(playground) == nil)
    }

    /// dyld's warnings, the program goes on loading. https://github.com/venmo/synx/issues/85
    @Test func dyldsWarningsAreNoCrash() {
        let refused = Self.refusal(
            """
            dyld: warning, LC_RPATH @executable_path/../lib in /Applications/Xcode.app/Contents/Frameworks/IDEFoundation.framework/Versions/A/../../../../Developer/Toolchains/XcodeDefault.xctoolchain/usr/lib/libLTO.dylib being ignored in restricted program because of @executable_path
            """)
        #expect(refused?.contains("keeps running after") == true, "\(refused ?? "read")")
        #expect(Self.refusal("dyld[812]: Library not loaded: @rpath/X.framework/X\n") == nil)
    }
}

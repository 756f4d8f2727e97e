import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// The backtraces other runtimes print when they stop a process on macOS or iOS (issue 48's
/// "every frame syntax"): Rust's standard backtrace in both its formats, with the places under
/// its frames; Go's goroutine stacks, each frame a function over its place; Python's
/// faulthandler dump. Their frames are read as frames, the runtime's own machinery is not the
/// app's code, and the panic hook above Rust's panic machinery is not where it panicked. Real
/// public texts of spent held-back sets; their sources are in `manifest.json`.
@Suite struct OtherRuntimesBacktracesTests {
    /// A Tauri app's panic hook printing `std::backtrace::Backtrace` for a panic in a function that
    /// cannot unwind (frames without addresses or places).
    /// https://github.com/ship-studio/ship-studio/issues/905
    @Test func rustsBacktraceIsReadPastItsPanicHook() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1940-rust-panic-cannot-unwind.txt")
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count >= 15, "\(frames.count)")
        #expect(frames.first?.symbol == "<std::backtrace::Backtrace>::create")
        #expect(frames.first?.index == 0)
        // The hook is the app's crate, above the machinery; the panicking function is below it.
        let named = diagnosis.causes.flatMap { $0.frames ?? [] }
        #expect(named.contains { $0.contains("tao::platform_impl::platform::app::send_event") }, "\(named)")
        #expect(!named.contains { $0.contains("install_panic_hook") }, "\(named)")
    }

    /// Rust before 1.73's layout kept today: the address and a dash before the symbol, the place on
    /// the indented `at` line under it; the message on the line after `panicked at FILE:LINE:COL:`.
    /// https://github.com/tauri-apps/tauri/issues/12864
    @Test func rustsAddressedFramesTakeTheirPlaces() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1941-rust-panic-cannot-unwind.txt")
        let frame = try #require(report.crashedThread?.frames.first)
        #expect(frame.hasAddress && frame.address == 0x10fb_dc796)
        #expect(frame.sourceFile?.hasSuffix("backtrace/libunwind.rs") == true && frame.sourceLine == 116)
        // The standard library's frames are not the app's.
        #expect(frame.isAppCodeWithoutImage == false)
        #expect(diagnosis.headline.contains("panic in a function that cannot unwind"), "\(diagnosis.headline)")
        // The message is the panic line's own continuation, not a line printed after it.
        #expect(!diagnosis.causes.contains { $0.text.hasPrefix("The line printed right after it") }, "\(diagnosis.causes.map(\.text))")
    }

    /// Go's runtime error with the goroutine's frames: each function over its indented place.
    /// https://github.com/bcicen/grmon/issues/8
    @Test func goroutineFramesAreFunctionsOverPlaces() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout13/1412-go-panic.txt")
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.first?.symbol == "main.ReadRoutines")
        #expect(frames.first?.sourceFile?.hasSuffix("grmon/parse.go") == true && frames.first?.sourceLine == 76)
        #expect(frames.first?.symbolOffset == 0x19c)
        #expect(frames.dropFirst().first?.symbol == "main.poll")
        // `nil pointer dereference` is the nil class's, not a broken rule's.
        #expect(diagnosis.headline.contains("missing (nil) value"), "\(diagnosis.headline)")
    }

    /// A reason's words alone (`index out of bounds`) name no Foundation throw site in a text that
    /// names neither its exception nor its methods: libc++'s hardening assertion is no NSArray's.
    /// https://github.com/NixOS/nixpkgs/pull/307880
    @Test func reasonWordsAloneNameNoThrowSite() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout18/1922-libcxx-hardening-assertion.txt")
        #expect(!diagnosis.causes.contains { $0.text.contains("NSArray") }, "\(diagnosis.causes.map(\.text))")
        #expect(!diagnosis.headline.contains("NSArray"), "\(diagnosis.headline)")
    }

    /// LLDB's own lines (`Process 76939 stopped`, the stop's thread line) are not the program's
    /// output; the lines above the first stop are, though a `bt` lists the thread again later.
    /// https://github.com/php/frankenphp/issues/2265
    @Test func theProgramsLastWordsAboveLLDBsStop() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1936-php-zend-heap-corrupted.txt")
        #expect(report.facts.lastOutput.last?.text == "zend_mm_heap corrupted")
        #expect(diagnosis.headline.contains("zend_mm_heap corrupted"), "\(diagnosis.headline)")
        #expect(!diagnosis.headline.contains("no exception or message explains it"))
        #expect(FactReading.isDebuggerStatus("Process 76939 stopped"))
        #expect(FactReading.isDebuggerStatus("Target 0: (frankenphp-mac-arm64) stopped."))
        #expect(!FactReading.isDebuggerStatus("Process the queue until it stopped"))
    }

    /// A desktop Java program's uncaught exception on macOS (`Exception in thread "main" …`),
    /// with its chained cause: read as the managed runtime's exception it is.
    /// https://github.com/kristian/system-hook/issues/27
    @Test func theJVMsUncaughtExceptionIsRead() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout18/1919-jvm-unsatisfied-link-error.txt")
        #expect(report.facts.statedMessages.first?.family == .managedException)
        #expect(diagnosis.headline.contains("java.lang.UnsatisfiedLinkError"), "\(diagnosis.headline)")
        let uncaught = try #require(
            ManagedExceptionLine.jvmUncaught("Exception in thread \"Resource download thread\" java.lang.OutOfMemoryError: Java heap space")
        )
        #expect(uncaught.name == "java.lang.OutOfMemoryError" && uncaught.message == "Java heap space")
        #expect(ManagedExceptionLine.jvmUncaught("Exception in thread \"main\" happened twice") == nil)
        // Android's own banner stays unread (CrashFamiliesTests).
        #expect(ManagedExceptionLine.jvmUncaught("FATAL EXCEPTION: main") == nil)
    }

    /// AppKit's handler for an exception its run loop caught logs `An uncaught exception was
    /// raised`, then the reason on a line of its own (the system log repeats lines), then the
    /// stack; the process name in the old system log's tag has blanks.
    /// https://github.com/ygini/Hello-IT/issues/5
    @Test func appKitsCaughtExceptionTakesTheReasonUnderIt() throws {
        let (report, diagnosis) = try diagnoseCrashText("tune/2027-nstask-launch-path-not-accessible.txt")
        #expect(report.exception?.uncaught?.reason == "launch path not accessible")
        #expect(diagnosis.headline.contains("launch path not accessible"), "\(diagnosis.headline)")
        // The marker line is no message of its own.
        #expect(!diagnosis.causes.contains { $0.text.contains("An uncaught exception was raised") }, "\(diagnosis.causes.map(\.text))")
        #expect(LogPrefix.spacedProcessTag("Hello IT[5970]: launch path not accessible") != nil)
        #expect(LogPrefix.spacedProcessTag("See the [1]: note") == nil)
    }

    /// The reason under AppKit's line may be a rule's own words (a main-thread check).
    /// https://github.com/namhokim/cocoa_app/issues/40
    @Test func appKitsReasonMayBeAMainThreadRule() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout12/1304-appkit-window-main-thread.txt")
        #expect(diagnosis.headline.contains("NSWindow drag regions should only be invalidated on the Main Thread"), "\(diagnosis.headline)")
    }

    /// A program's last words that it gives up, after saying why (NSApplicationMain's).
    /// https://github.com/julienXX/terminal-notifier/issues/117
    @Test func aProgramThatSaysItIsExiting() throws {
        let (_, diagnosis) = try diagnoseCrashText("tune/2007-appkit-mainmenu-nib-missing.txt")
        #expect(diagnosis.headline.contains("Unable to load nib file: MainMenu, exiting"), "\(diagnosis.headline)")
        #expect(GivingUpLine.isGivingUp("Could not open the database file, aborting."))
        #expect(!GivingUpLine.isGivingUp("Done, exiting"))
        // A stop someone asked for is a normal end, no crash.
        #expect(!GivingUpLine.isGivingUp("Received SIGTERM from the launcher, exiting"))
        #expect(!GivingUpLine.isGivingUp("Interrupted by the user at the prompt, exiting."))
    }

    /// Python's traceback lists its frames oldest first (`most recent call last`) and names the
    /// exception on the line after them: the newest frame is where it was raised.
    /// https://github.com/arsenetar/dupeguru/issues/23
    @Test func pythonsTracebackIsReadNewestFirst() throws {
        let (report, diagnosis) = try diagnoseFile(
            TestPaths.fixtures.appendingPathComponent("pasted/python__dupeguru-23_keyerror-traceback_excerpt.txt"))
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.count == 8)
        #expect(frames.first?.symbol == "container_unwrap" && frames.first?.index == 0)
        #expect(frames.last?.symbol == "_async_run")
        #expect(report.facts.statedMessages.first?.text == "KeyError: 'iPhotoRecentDatabases'")
        #expect(diagnosis.headline.contains("KeyError: 'iPhotoRecentDatabases'"), "\(diagnosis.headline)")
        #expect(PythonTraceback.exceptionLine("json.decoder.JSONDecodeError: Expecting value: line 1 column 1") != nil)
        #expect(PythonTraceback.exceptionLine("note: something") == nil)
    }

    // MARK: - Libraries' fatal logs (holdout19, measured once, then tuned on)

    /// glog's `F` line is fatal: the logger aborts after it; the I and W lines are a log's prefix.
    /// https://github.com/google-ai-edge/mediapipe/issues/145
    @Test func glogsFatalLineIsTheStatedCheck() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout19/2002-absl-check-failed.txt")
        let message = try #require(report.facts.statedMessages.first { $0.family == .assertion })
        #expect(message.text.contains("Check failed: !err Error creating pixel buffer: -6661"))
        #expect(diagnosis.headline.contains("Check failed: !err"), "\(diagnosis.headline)")
        #expect(GlogLine.header("W1004 17:24:30.598220 1878994944 tflite_inference_calculator.cc:539] Please ensure")?.severity == "W")
        #expect(GlogLine.header(": F tensorflow/core/platform/cpu_feature_guard.cc:37] The TensorFlow library")?.severity == "F")
        #expect(GlogLine.header("Failed to open the file") == nil)
    }

    /// Abseil's stack after a failed `CHECK`, `@ 0x… symbol` frames: the logger's own frames are
    /// not where the check failed.
    /// https://github.com/Meshcapade/difflocks/issues/18
    @Test func abseilsCheckFailureStack() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout19/2001-absl-check-failed.txt")
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.first?.symbol == "absl::log_internal::LogMessage::SendToLog()" && frames.first?.address == 0x15af_ded2c)
        #expect(diagnosis.headline.contains("Check failure stack trace"), "\(diagnosis.headline)")
        #expect(
            diagnosis.causes.first?.frames?.contains { $0.contains("mediapipe::ConvertFromImageFrame()") } == true, "\(diagnosis.causes)")
    }

    /// OpenMP's fatal error, then the shell's `abort`; fish's job line names the signal too.
    /// https://github.com/justinpinkney/stable-diffusion/issues/14, https://github.com/nat/openplayground/issues/15
    @Test func openMPsFatalError() throws {
        let (_, first) = try diagnoseCrashText("holdout19/2031-openmp-duplicate-runtime.txt")
        #expect(first.headline.contains("OMP: Error #15: Initializing libomp.dylib"), "\(first.headline)")
        let (report, second) = try diagnoseCrashText("holdout19/2032-openmp-duplicate-runtime.txt")
        #expect(second.headline.contains("OMP: Error #15"), "\(second.headline)")
        #expect(report.facts.exception?.signal == "SIGABRT")
    }

    /// QEMU's user-mode emulation names the signal by number (`uncaught target signal 6
    /// (Aborted)`); the line above it is what the program printed last.
    /// https://github.com/tensorchord/envd/issues/881
    @Test func qemusTargetSignalByNumber() throws {
        let (report, diagnosis) = try diagnoseCrashText("holdout19/2042-tensorflow-avx-unavailable.txt")
        #expect(report.facts.exception?.signal == "SIGABRT")
        #expect(diagnosis.headline.contains("compiled to use AVX instructions"), "\(diagnosis.headline)")
    }

    /// Xlib's handler for a lost X server (XQuartz) exits the program.
    /// https://github.com/jdwije/qemacs/issues/6
    @Test func xlibsFatalIOError() throws {
        let (_, diagnosis) = try diagnoseCrashText("holdout19/2055-x11-xio-fatal-io-error.txt")
        #expect(diagnosis.headline.contains("XIO:  fatal IO error 35"), "\(diagnosis.headline)")
    }

    /// bash's prompt as macOS sets it is a prompt: the command after it is what ran, not output.
    @Test func macOSBashPrompt() {
        #expect(ShellPrompt.command(in: "ericd-2:MacOS eric$ ./run.sh example.v64") == "./run.sh example.v64")
        #expect(ShellPrompt.command(in: "Note: the cost is 5$ each") == nil)
    }

    @Test func frameSyntaxes() throws {
        // Rust, new and old.
        let new = try #require(PastedFrameGrammar.parse("9: tao::platform_impl::platform::app::send_event", reportLine: 1))
        #expect(new.index == 9 && new.symbol == "tao::platform_impl::platform::app::send_event" && !new.hasAddress)
        let impl = try #require(
            PastedFrameGrammar.parse("13: <tauri_runtime_wry::Wry<...> as tauri_runtime::Runtime<...>>::run::<...>", reportLine: 1))
        #expect(impl.symbol?.hasPrefix("<tauri_runtime_wry::Wry") == true)
        #expect(PastedFrameGrammar.parse("10: <unknown>", reportLine: 1)?.symbol == "<unknown>")
        let old = try #require(PastedFrameGrammar.parse("4:        0x10c9d7c4a - myapp::window::Window::new::h89c1bd0d", reportLine: 1))
        #expect(old.address == 0x10c9_d7c4a && old.symbol == "myapp::window::Window::new::h89c1bd0d")
        // A numbered sentence is no frame.
        #expect(PastedFrameGrammar.parse("1: the build failed twice", reportLine: 1) == nil)
        #expect(PastedFrameGrammar.rustPlace("at ./src/main.rs:4:5")?.line == 4)
        #expect(PastedFrameGrammar.rustPlace("at Object.<anonymous> (cli.js:5:1)") == nil)
        // faulthandler's `File "…", line N in f`, no comma before `in`.
        let python = try #require(PastedFrameGrammar.parse("File \"/Users/me/app/render.py\", line 88 in draw_frame", reportLine: 1))
        #expect(python.symbol == "draw_frame" && python.sourceLine == 88)
    }

    @Test func rustAndCxxPathsAreJudgedByTheirFirstName() {
        #expect(AppOwnership.isAppCode(symbol: "myapp::parser::read_header") == true)
        #expect(AppOwnership.isAppCode(symbol: "<tao::platform_impl::platform::event_loop::EventLoop<T>>::run") == true)
        #expect(AppOwnership.isAppCode(symbol: "core::panicking::panic_fmt") == false)
        #expect(AppOwnership.isAppCode(symbol: "<std::backtrace::Backtrace>::create") == false)
        #expect(
            AppOwnership.isAppCode(symbol: "WebCore::Node::removedFromAncestor(WebCore::Node::RemovalType, WebCore::ContainerNode&)")
                == false)
        // The compiler's own namespaces are the program in a toolchain's crash: undecided.
        #expect(AppOwnership.isAppCode(symbol: "swift::serialization::Serializer::writeAllDeclsAndTypes()") == nil)
        #expect(AppOwnership.isSystemSourceFile("/rustc/4d91de4e/library/core/src/panicking.rs"))
        // The demangler's `static ` and an extension's module (Swift).
        #expect(AppOwnership.isAppCode(symbol: "closure #1 in static BackgroundTaskManager.registerBGTaskHandler()") == true)
        #expect(AppOwnership.isAppCode(symbol: "(extension in MyApp):UIViewController.showAlert(title:)") == true)
        #expect(AppOwnership.isAppCode(symbol: "(extension in Foundation):Data.init(contentsOf:)") == false)
    }

    @Test func aNextLineIsAReasonOnlyWhenItReadsAsOne() {
        func line(_ text: String) -> StatedMessage { StatedMessage(family: .annotation, text: text, quote: text, source: .console) }
        #expect(line("Unable to instantiate the UIApplication delegate instance. No class named X is loaded.").readsAsSentence)
        #expect(!line("stack backtrace:").readsAsSentence)
        #expect(!line("ruby 3.2.0 (2022-12-25 revision a528908271) [arm64-darwin22]").readsAsSentence)
    }
}

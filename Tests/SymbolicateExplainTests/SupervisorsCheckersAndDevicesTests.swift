import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Words for a death that other programs print (issue 48): a supervisor for its child (web
/// servers, task queues, container runtimes, build daemons), a memory checker other than ASan, a
/// GPU API for a lost device, a microcontroller's fault handler, Windows for an exit status, Lua for
/// its runtime error; and the frame lines of Android's tombstones and Valgrind. Each family was
/// measured on holdout23 before any rule here was written.
@Suite struct SupervisorsCheckersAndDevicesTests {
    /// A signal stated with its number and its name or description, which agree: Valgrind
    /// (https://github.com/sisoputnfrba/foro/issues/3870), billiard
    /// (https://github.com/JeffreyCA/spleeter-web/issues/92), Apache
    /// (https://github.com/icing/mod_h2/issues/105), ClickHouse
    /// (https://github.com/ClickHouse/ClickHouse/issues/426), varnish
    /// (https://github.com/varnishcache/varnish-cache/issues/2724).
    @Test func aSignalWithItsNumber() {
        #expect(SignalLine.signal(in: "Process terminating with default action of signal 11 (SIGSEGV)") == "SIGSEGV")
        #expect(SignalLine.signal(in: "Process 'ForkPoolWorker-3' pid:27 exited with 'signal 9 (SIGKILL)'") == "SIGKILL")
        #expect(SignalLine.signal(in: "AH00052: child pid 3813 exit signal Segmentation fault (11)") == "SIGSEGV")
        #expect(SignalLine.signal(in: "(from thread 49) Received signal Segmentation fault (11).") == "SIGSEGV")
        #expect(SignalLine.signal(in: "Child (16735) died signal=6") == "SIGABRT")
        // Linux's number for SIGBUS, and Apple's.
        #expect(SignalLine.pairedSignal(in: "terminated by signal 7 (SIGBUS)") == "SIGBUS")
        #expect(SignalLine.pairedSignal(in: "terminated by signal 10 (SIGBUS)") == "SIGBUS")
        // A number and a name that disagree, a signal asked to stop, a field with no death beside it.
        #expect(SignalLine.pairedSignal(in: "signal 4 (SIGSEGV)") == nil)
        #expect(SignalLine.pairedSignal(in: "Received signal 15 (SIGTERM), shutting down") == nil)
        #expect(SignalLine.pairedSignal(in: "config: signal=6 handler=on") == nil)
    }

    /// An exit status that stands for a signal (128 + N: docker-compose's `exited with code 139`,
    /// https://github.com/ngardiner/TWCManager/issues/354) or for a Windows exception (cargo's
    /// `exit code: 0xc0000005, STATUS_ACCESS_VIOLATION`, https://github.com/mttaggart/rustyneedle/issues/2),
    /// in hex or decimal; an ordinary exit status is none.
    @Test func exitStatusesThatAreSignals() throws {
        #expect(SignalLine.signal(in: "pi_twcmanager_1 exited with code 139") == "SIGSEGV")
        #expect(SignalLine.signal(in: "Exit Code: 137") == "SIGKILL")
        #expect(SignalLine.signal(in: "Process finished with exit code -1073741819 (0xC0000005)") == "SIGSEGV")
        #expect(SignalLine.exitStatusSignal(in: "node exited with code 3221225477") == "SIGSEGV")
        #expect(SignalLine.exitStatusSignal(in: "app exited with code 1") == nil)
        #expect(SignalLine.exitStatusSignal(in: "Exit Code: 255") == nil)
        let diagnosis = try diagnoseText(
            """
            Calling CreateThread...
            error: process didn't exit successfully: `target\\debug\\roestnaald.exe` (exit code: 0xc0000005, STATUS_ACCESS_VIOLATION)
            """)
        #expect(diagnosis.headline.hasPrefix("SIGSEGV"), "\(diagnosis.headline)")
    }

    /// Unreal Engine's log (https://github.com/ruyo/VRM4U/issues/276): its prefix read, the
    /// exception's `EXCEPTION_` name as its signal with the address, not Dart's `Unhandled Exception:`.
    @Test func unrealEnginesAccessViolation() throws {
        let report = try readPasted(
            """
            [2023.05.23-09.09.10:171][  0]LogThreadingWindows: Error: Runnable thread FAsyncLoadingThread crashed.
            [2023.05.23-09.09.10:171][  0]LogWindows: Error: Unhandled Exception: EXCEPTION_ACCESS_VIOLATION reading address 0x0000021e5d571000
            [2023.05.23-09.09.10:172][  0]LogWindows: Error: [Callstack] 0x00007ff7d887dbd9 LowpolyWithLL2.exe!FExportArchive::Serialize() []

            """)
        #expect(report.facts.exception?.signal == "SIGSEGV")
        let diagnosis = diagnose(report)
        #expect(diagnosis.headline.contains("0x21e5d571000"), "\(diagnosis.headline)")
        #expect(diagnosis.said.contains("FExportArchive::Serialize"), "\(diagnosis.said)")
    }

    /// Memory checkers that stop the process: HWASan (https://github.com/python-cffi/cffi/issues/93),
    /// Scudo (https://github.com/Tencent/MMKV/issues/1019), the kernel's KASAN
    /// (https://github.com/tempesta-tech/tempesta/issues/2328); a TSan warning stays a warning.
    @Test func memoryCheckersBesideASan() {
        #expect(
            CrashMessageGrammar.match("==75==ERROR: HWAddressSanitizer: tag-mismatch on address 0xffff7d9c8560 at pc 0xffff7d8a640c")?
                .family == .malloc)
        #expect(CrashMessageGrammar.match("Scudo ERROR: invalid chunk state when deallocating address 0x7a3c")?.family == .malloc)
        #expect(
            CrashMessageGrammar.match(
                "[ 3131.046482] BUG: KASAN: use-after-free in tfw_http_msg_process_generic+0x7bc/0xc50 [tempesta_fw]")?
                .family == .malloc)
        #expect(CrashMessageGrammar.match("WARNING: ThreadSanitizer: data race (pid=123)")?.family != .malloc)
        // LeakSanitizer reports when the program has ended on its own (a near-miss of holdout23,
        // https://github.com/elunna/hackem/issues/108).
        #expect(CrashMessageGrammar.match("==20068==ERROR: LeakSanitizer: detected memory leaks") == nil)
        #expect(CrashMessageGrammar.match("SUMMARY: AddressSanitizer: 240 byte(s) leaked in 2 allocation(s).") == nil)
    }

    /// Android's tombstone frames (the offset in the object after `pc`, the symbol in parentheses,
    /// the build id left out), https://github.com/Tencent/MMKV/issues/1019; and Valgrind's, with a
    /// place or an object (https://github.com/sisoputnfrba/foro/issues/3870).
    @Test func tombstoneAndValgrindFrames() throws {
        let frame = try #require(
            PastedFrameGrammar.androidTombstone(
                "#04 pc 0000000000043664  /apex/com.android.runtime/lib64/bionic/libc.so (scudo::die()+12) (BuildId: 9ad2)", 3))
        #expect(frame.index == 4)
        #expect(frame.imageName == "libc.so")
        #expect(!frame.hasAddress)
        #expect(frame.symbol == "scudo::die()")
        #expect(frame.symbolOffset == 12)
        let bare = try #require(PastedFrameGrammar.androidTombstone("#05  pc 0x0000000000017a8c  /data/app/lib/arm64/libmmkv.so", 4))
        #expect(bare.imageName == "libmmkv.so")
        #expect(bare.symbol == nil)
        let valgrind = try #require(PastedFrameGrammar.valgrindFrame("at 0x10A6C8: ejecutar_cliclos (main.c:24)", 5))
        #expect(valgrind.symbol == "ejecutar_cliclos")
        #expect(valgrind.sourceFile == "main.c")
        #expect(valgrind.sourceLine == 24)
        let inObject = try #require(PastedFrameGrammar.valgrindFrame("by 0x4E2F: ??? (in /usr/lib/libfoo.so.1)", 6))
        #expect(inObject.imageName == "libfoo.so.1")
        #expect(inObject.symbol == nil)
        // A handler's numbered `backtrace_symbols` line with a bare program name (ClickHouse).
        let numbered = try #require(
            PastedFrameGrammar.backtraceSymbols("1. clickhouse-server(DB::Block::bytes() const+0x27) [0x1142807]", 7))
        #expect(numbered.index == 1)
        #expect(numbered.symbol == "DB::Block::bytes() const")
        #expect(numbered.imageName == "clickhouse-server")
    }

    /// A GPU lost (Vulkan, https://github.com/vinegarhq/sober/issues/1880; Direct3D,
    /// https://github.com/999sian/melee-pc/issues/67), CUDA's errors
    /// (https://github.com/evo-design/evo/issues/136) and its memory (https://github.com/wxian3/NeuroLens/issues/2).
    @Test func gpuFailures() throws {
        #expect(
            CrashMessageGrammar.match(
                "VULKAN ERROR: vkQueueSubmit(commandQueue, 1, &submitInfo, fence) returned -4 (VK_ERROR_DEVICE_LOST)")?
                .family == .processExit)
        #expect(
            CrashMessageGrammar.match("Device lost: ID3D11Device::GetDeviceRemovedReason failed with DXGI_ERROR_DEVICE_HUNG (0x887A0006)")?
                .family == .processExit)
        #expect(CrashMessageGrammar.match("RuntimeError: CUDA error: an illegal memory access was encountered") != nil)
        let diagnosis = try diagnoseText(
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 55.57 GiB. GPU 0 has a total capacty of 12.00 GiB\n")
        #expect(diagnosis.category == .resourceLimit, "\(diagnosis.category)")
        #expect(diagnosis.said.contains("55.57 GiB"), "\(diagnosis.said)")
    }

    /// Firmware fault handlers: ESP-IDF (https://github.com/jomjol/AI-on-the-edge-device/issues/592),
    /// the ESP8266 core (https://github.com/esp8266/Arduino/issues/4121), Zephyr
    /// (https://github.com/zephyrproject-rtos/zephyr/issues/92183).
    @Test func firmwareFaults() {
        #expect(FirmwareFault.signal(in: "Guru Meditation Error: Core  0 panic'ed (LoadProhibited). Exception was unhandled.") == "SIGSEGV")
        #expect(
            FirmwareFault.signal(in: "Guru Meditation Error: Core  1 panic'ed (IllegalInstruction). Exception was unhandled.") == "SIGILL")
        #expect(FirmwareFault.signal(in: "Exception (28):") == "SIGSEGV")
        #expect(FirmwareFault.signal(in: "Exception (99):") == nil)
        #expect(FirmwareFault.signal(in: ">>> ZEPHYR FATAL ERROR 0: CPU exception on CPU 0") == "SIGSEGV")
        #expect(FirmwareFault.signal(in: "***** MPU FAULT *****") == "SIGSEGV")
        #expect(FirmwareFault.signal(in: "***** Important notes *****") == nil)
    }

    /// Lua's runtime errors (LÖVE, https://github.com/kikito/anim8/issues/43), in 5.1's and 5.3's words.
    @Test func luaRuntimeErrors() {
        #expect(LuaError.isError("Error: main.lua:10: attempt to index local 'str' (a nil value)"))
        #expect(LuaError.isError("script.lua:3: attempt to call a nil value (global 'foo')"))
        #expect(LuaError.isError("attempt to compare two table values"))
        #expect(!LuaError.isError("we attempt to index the files again"))
    }

    /// A helper process that died, in its parent's words: Electron's window
    /// (https://github.com/microsoft/vscode/issues/182346), Gradle's daemon
    /// (https://github.com/cgeo/cgeo/issues/5963), Python's process pool
    /// (https://github.com/PacktPublishing/Python-Programming-Blueprints/issues/16).
    @Test func helpersThatDied() {
        #expect(HelperExit.isHelperExit("The window terminated unexpectedly (reason: 'crashed', code: '10')"))
        #expect(HelperExit.isHelperExit("Gradle build daemon disappeared unexpectedly (it may have been killed or may have crashed)"))
        #expect(HelperExit.isHelperExit("A process in the process pool was terminated abruptly while the future was running or pending."))
        #expect(!HelperExit.isHelperExit("The window terminated unexpectedly when I resized it"))
    }

    /// Runtimes' and servers' last words: Android's `Abort message:` and CheckJNI
    /// (https://github.com/jiangdongguo/AndroidUSBCamera/issues/290), InnoDB's assertion
    /// (https://github.com/linuxserver/docker-mariadb/issues/100), systemd-coredump
    /// (https://github.com/SolDoesTech/HyprV3/issues/18), Node's unheard `error` event
    /// (https://github.com/saschagehlich/hotnode/issues/12), Emscripten's `abort(OOM)`
    /// (https://github.com/indix/kafkajs-lz4/issues/15), MATLAB's crash file
    /// (https://github.com/opensim-org/opensim-core/issues/697), Minecraft
    /// (https://github.com/Project-XD/Raven-XD/issues/47), Ren'Py (https://github.com/Skull220/DDLCtVN/issues/14).
    @Test func runtimesAndServersLastWords() {
        #expect(
            CrashMessageGrammar.match("Abort message: 'java_vm_ext.cc:542] JNI DETECTED ERROR IN APPLICATION: obj == null'")?.family
                == .libraryMisuse)
        #expect(
            CrashMessageGrammar.match(
                "2022-01-09 00:00:16 0x8feb9d30  InnoDB: Assertion failure in file /src/storage/innobase/btr/btr0pcur.cc line 521")?.family
                == .assertion)
        #expect(CrashMessageGrammar.match("InnoDB: Failing assertion: btr_page_get_prev(next_page) == 0")?.family == .assertion)
        #expect(
            CrashMessageGrammar.match("archlinux systemd-coredump[835]: Process 797 (swww) of user 1000 dumped core.")?.family
                == .processExit)
        #expect(CrashMessageGrammar.match("      throw er; // Unhandled 'error' event")?.family == .managedException)
        #expect(CrashMessageGrammar.match("RuntimeError: abort(OOM). Build with -s ASSERTIONS=1 for more info.")?.family == .resource)
        #expect(SignalLine.signal(in: "Segmentation violation detected at Thu Feb 23 19:55:08 2017") == "SIGSEGV")
        #expect(CrashMessageGrammar.match("\"The game crashed whilst ticking entity\"")?.family == .processExit)
        #expect(CrashMessageGrammar.match("I'm sorry, but an uncaught exception occurred.")?.family == .managedException)
        // Crashlytics' title of an Android crash (https://github.com/gaborauth/toolsboox/issues/8).
        #expect(CrashMessageGrammar.match("Fatal Exception: java.lang.IllegalStateException")?.family == .managedException)
    }

    /// Managed runtimes' exception lines with nothing Apple-shaped around them: a JVM's with its
    /// package (https://github.com/Earthcomputer/EnchantmentCracker/issues/19), Elixir's
    /// (https://github.com/pragdave/e4p-code/pull/2), a Python traceback however short
    /// (https://github.com/PacktPublishing/Python-Programming-Blueprints/issues/16); PHP's
    /// `Fatal error:` is not Swift's (holdout22's 2343, whose manifest entry names its public source).
    @Test func managedRuntimesExceptionLines() throws {
        #expect(CrashMessageGrammar.match("java.lang.OutOfMemoryError: Java heap space")?.family == .managedException)
        #expect(
            CrashMessageGrammar.match("java.lang.UnsatisfiedLinkError: no enchcracker in java.library.path")?.family == .managedException)
        #expect(CrashMessageGrammar.match("com.example.Config is missing") == nil)
        #expect(
            CrashMessageGrammar.match(
                "        ** (UndefinedFunctionError) function Dictionary.Application.start/2 is undefined or private.")?.family
                == .managedException)
        #expect(CrashMessageGrammar.match("** (EXIT) an exception was raised:") == nil)
        let diagnosis = try diagnoseText(
            """
            Exception in Tkinter callback
            Traceback (most recent call last):
              File "/Library/Frameworks/Python.framework/Versions/3.7/lib/python3.7/concurrent/futures/_base.py", line 384, in __get_result
                raise self._exception
            concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while the future was running or pending.
            """)
        #expect(diagnosis.said.contains("BrokenProcessPool"), "\(diagnosis.said)")
        let php =
            "PHP Fatal error:  Allowed memory size of 134217728 bytes exhausted (tried to allocate 40000 bytes) in pa1815/index.php on line 60"
        #expect(ConsoleLine.swiftRuntimeError(php) == nil)
        #expect(try diagnoseText(php + "\n").category == .resourceLimit)
    }

    /// Checked after the tuning on texts of threads no gathering holds: a firmware fault is its
    /// signal behind the Arduino IDE's serial monitor prefix
    /// (https://github.com/espressif/arduino-esp32/issues/3093, ESP-IDF's spelling
    /// `InstrFetchProhibited` from https://github.com/espressif/esp-idf/issues/1853), and
    /// Valgrind's frames behind its `==pid==` make a text read
    /// (https://github.com/sisoputnfrba/foro/issues/2377).
    @Test func familiesOnTextsNotTunedOn() throws {
        let esp = try readPasted(
            """
            00:00:26.481 -> adafruits version of this was: 1037.55
            00:00:26.481 -> Guru Meditation Error: Core  1 panic'ed (StoreProhibited). Exception was unhandled.
            00:00:26.481 -> Core 1 register dump:

            """)
        #expect(esp.facts.exception?.signal == "SIGSEGV")
        #expect(
            SignalLine.signal(in: "Guru Meditation Error: Core 1 panic'ed (InstrFetchProhibited). Exception was unhandled.") == "SIGSEGV")
        let valgrind = try readPasted(
            """
            ==5748== Process terminating with default action of signal 13 (SIGPIPE)
            ==5748==    at 0x406B549: send (send.c:35)
            ==5748==    by 0x8049A99: envioDePaginaAsigFija (peticiones.c:82)
            ==5748==    by 0x804984B: procesarPeticion (peticiones.c:35)

            """)
        #expect(valgrind.crashedThread?.frames.map(\.symbol) == ["send", "envioDePaginaAsigFija", "procesarPeticion"])
    }
}

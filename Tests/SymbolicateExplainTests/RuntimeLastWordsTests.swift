import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// Runtimes' last words for an error nothing handled, in the shapes holdout25's measure showed
/// unread (issue 48): Ruby's without a method, GHC's `program: text`, the Erlang VM's `Kernel pid
/// terminated`, Lua's errors with `stack traceback:`, a Rust panic hook's heading, behind Docker
/// Compose's service column or in a table of another language's braces. Each test cites the
/// public thread its lines come from.
@Suite struct RuntimeLastWordsTests {
    /// Ruby's line for an exception raised where its backtrace was cut
    /// (https://github.com/trogdoro/xiki/issues/95): place, message, class; no method.
    @Test func rubyUncaughtWithoutMethod() throws {
        let diagnosis = try diagnoseText("$ ~/xiki/bin/xiki:2: stack level too deep (SystemStackError)\n")
        #expect(diagnosis.headline.contains("stack level too deep (SystemStackError)"), "\(diagnosis.headline)")
        #expect(diagnosis.category != .unknown)
        #expect(RubyUncaught.isUncaught("lib/app/runner.rb:14: undefined method `call' for nil (NoMethodError)"))
        // A sentence with a class in parentheses and no place is no such line.
        #expect(!RubyUncaught.isUncaught("The build failed: see the log (BuildError)"))
    }

    /// GHC's top-level handler (https://github.com/atemerev/icfpc2013/issues/17): the program's
    /// name, then what the base library's partial function said.
    @Test func haskellUncaughtOneLine() throws {
        let text = """
            > client low-level-solve ySNrChqgZ3nTGsPPS9pxiCHB 12 "not or plus tfold"
            client: Prelude.head: empty list
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Prelude.head: empty list"), "\(diagnosis.headline)")
        #expect(HaskellUncaught.isUncaught("hakyll-site: src/Site.hs:(40,1)-(42,30): Non-exhaustive patterns in function renderTags"))
        #expect(!HaskellUncaught.isUncaught("note: Prelude is imported implicitly"))
    }

    /// The Erlang VM stopping for an application that ended (https://github.com/CityOfZion/neo-scan/issues/207),
    /// every line behind Docker Compose's service column.
    @Test func erlangKernelPidTerminatedBehindCompose() throws {
        let text = """
            neo-scan                | 2018-06-03 17:42:26.120 [info] [neoscan@127.0.0.1] Application neoscan_sync exited: shutdown
            neo-scan                | {"Kernel pid terminated",application_controller,"{application_terminated,neoscan_sync,shutdown}"}
            neo-scan                | Kernel pid terminated (application_controller) ({application_terminated,neoscan_sync,shutdown})
            neo-scan                |
            neo-scan                | Crash dump is being written to: erl_crash.dump...done
            neo-scan exited with code 1
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Kernel pid terminated"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("neoscan_sync"), "\(diagnosis.headline)")
        #expect(LogPrefix.stages(of: "web-1  | panic: boom").contains("panic: boom"))
        // A table's row is no service column.
        #expect(LogPrefix.composeService("| name | value |") == nil)
        #expect(LogPrefix.composeService("web-1 |x") == nil)
    }

    /// Lua's error and traceback as Neovim prints them (https://github.com/crivotz/nv-ide/issues/12):
    /// the frames are read, the interpreter's `[C]` frames are not the app's.
    @Test func luaErrorAndTraceback() throws {
        let text = """
            Error detected while processing /root/.nv-ide/init.lua:
            E5113: Error while calling lua chunk: /root/.config/nvim/lua/plugins.lua:12: attempt to call field 'nvim_create_autocmd' (a nil value)
            stack traceback:
                    /root/.config/nvim/lua/plugins.lua:12: in main chunk
                    [C]: in function 'require'
                    /root/.config/nvim/init.lua:2: in main chunk
            Press ENTER or type command to continue
            """
        let report = try readPasted(text)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.symbol) == ["main chunk", "require", "main chunk"])
        #expect(frames.first?.sourceFile == "/root/.config/nvim/lua/plugins.lua")
        #expect(frames.first?.sourceLine == 12)
        #expect(frames[1].imageName == "[C]")
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("attempt to call field 'nvim_create_autocmd' (a nil value)"), "\(diagnosis.headline)")
        // Lua 5.4's kinds of name (https://github.com/Zeioth/garbage-day.nvim/issues/22).
        let local = try readPasted(
            """
            E5108: Lua: .../lazy/plugins/garbage-day.nvim/lua/garbage-day/utils.lua:12: attempt to index local 'config' (a nil value)
            stack traceback:
            \t.../lazy/plugins/garbage-day.nvim/lua/garbage-day/utils.lua:12: in function 'stop_lsp'
            """)
        #expect(local.crashedThread?.frames.first?.symbol == "stop_lsp")
        // A chunk run from a string (https://github.com/mhartington/formatter.nvim/issues/198).
        let chunk = try readPasted(
            """
            E5108: Error executing lua [string ":lua"]:1: attempt to call field 'format' (a nil value)
            stack traceback:
                    [string ":lua"]:1: in main chunk
            """)
        #expect(chunk.crashedThread?.frames.first?.sourceFile == "[string \":lua\"]")
    }

    /// A Lua crash table in braces (https://github.com/oeed/OneOS/issues/203): no JSON member in
    /// it, so the text is read for the error it quotes rather than refused as broken JSON.
    @Test func luaCrashTableIsNoJSON() throws {
        let text = """
            {
              message = \\"Crashed After Main Initialise\\",
              programs = {},
              errors = {
                \\"main.lua:66: attempt to index ? (a nil value)\\",
              },
            }
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("main.lua:66: attempt to index ? (a nil value)"), "\(diagnosis.headline)")
        #expect(LuaError.isPlacedError("lua: main.lua:12: bad argument #1 to 'insert' (table expected, got nil)"))
    }

    /// color-eyre's panic hook (https://github.com/dantleech/debug-tui/issues/58): the heading, the
    /// message, the place, said as one.
    @Test func rustPanicHookHeading() throws {
        let text = """
            The application panicked (crashed).
              attempt to subtract with overflow
            in src/app.rs:774
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("attempt to subtract with overflow"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("src/app.rs:774"), "\(diagnosis.headline)")
    }

    /// OCaml's runtime (https://github.com/goblint/analyzer/issues/247): its `Fatal error:` is no
    /// Swift runtime error; its backtrace's frames are read, the standard library's not the app's
    /// (https://github.com/caffeinelabs/motoko/issues/5734, the tune text 2745).
    @Test func ocamlUncaughtException() throws {
        let text = """
            Fatal error: exception Not_found
            Raised at Stdlib__Map.Make.find in file "map.ml", line 137, characters 10-25
            Called from Mo_idl__Mo_to_idl.MakeState.typ in file "mo_idl/mo_to_idl.ml", line 107, characters 22-58
            Called from Stdlib__List.map in file "list.ml", line 92, characters 20-23
            """
        let report = try readPasted(text)
        #expect(report.exception?.runtimeError == nil)
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.symbol) == ["Stdlib__Map.Make.find", "Mo_idl__Mo_to_idl.MakeState.typ", "Stdlib__List.map"])
        #expect(frames[1].sourceFile == "mo_idl/mo_to_idl.ml" && frames[1].sourceLine == 107)
        let diagnosis = try diagnoseText(text)
        #expect(!diagnosis.headline.contains("Swift"), "\(diagnosis.headline)")
        #expect(diagnosis.headline.contains("Fatal error: exception Not_found"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.first?.frames?.first?.contains("Mo_idl__Mo_to_idl.MakeState.typ") == true, "\(diagnosis.causes)")
        #expect(OCamlUncaught.isUncaught(#"Fatal error: exception Failure("int64_of_big_int")"#))
        // Before 4.11 a frame names its file only.
        let old = try readPasted(
            """
            Fatal error: exception Exn.Empty_list
            Raised at file "map.ml", line 118, characters 16-25
            Called from file "lib/conv.ml", line 224, characters 12-44
            """)
        #expect(old.crashedThread?.frames.map(\.sourceLine) == [118, 224])
    }

    /// The Dart VM's heading with the exception on the next line (https://github.com/nerdrew/dart-ctags/issues/7).
    @Test func dartUnhandledException() throws {
        let text = """
            ~/.pub-cache/bin/dart_ctags -l -o .git/ctags

            Unhandled exception:
            Invalid argument(s): Content produced diagnostics when parsed
            #0      parseString (package:analyzer/dart/analysis/utilities.dart:131)
            #1      parseFile (package:analyzer/dart/analysis/utilities.dart:52)
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Invalid argument(s): Content produced diagnostics when parsed"), "\(diagnosis.headline)")
    }

    /// Crystal's (https://github.com/orangeSi/bam2msa/issues/1): the message with its class, then
    /// `from FILE:LINE:COL in 'METHOD'` frames; the standard library's are not the app's.
    @Test func crystalUnhandledException() throws {
        let text = """
            $ ./src/bam2msa -h
            Unhandled exception: Index out of bounds (IndexError)
              from /usr/share/crystal/src/gc/boehm.cr:110:5 in 'parse_and_run'
              from /mnt/bam2msa.cr:487:1 in '__crystal_main'
              from /usr/share/crystal/src/crystal/main.cr:110:5 in 'main'
              from ???
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("Index out of bounds (IndexError)"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.first?.frames?.first?.contains("bam2msa.cr:487") == true, "\(diagnosis.causes)")
    }

    /// Julia's error over its stack trace (https://github.com/JuliaLang/julia/issues/49876), no
    /// longer refused as source code.
    @Test func juliaError() throws {
        let text = """
            $ julia non_existent_file.jl
            ERROR: SystemError: opening file "/home/topolarity/non_existent_file.jl": No such file or directory
            Stacktrace:
              [1] systemerror(p::String, errno::Int32; extrainfo::Nothing)
                @ Base ./error.jl:176
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("SystemError: opening file"), "\(diagnosis.headline)")
        #expect(JuliaError.isError("ERROR: LoadError: TaskFailedException"))
        #expect(!JuliaError.isError("ERROR: could not connect to the server"))
    }

    /// R's error that halted a script, its message on the next line (https://github.com/mskcc/facets/issues/2).
    @Test func rErrorExecutionHalted() throws {
        let text = """
            Error in density.default(na.omit(x), n = 1024) :\u{20}
              need at least 2 points to select a bandwidth automatically
            Calls: emcncf -> find.mode -> density -> density.default
            Execution halted
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.headline.contains("need at least 2 points to select a bandwidth automatically"), "\(diagnosis.headline)")
    }

    /// Perl's fatal errors with their place (https://github.com/preaction/Statocles/issues/403); a
    /// warning in the same form is not one.
    @Test func perlFatalError() throws {
        let line =
            #"Can't locate object method "new" via package "Statocles::Template" (perhaps you forgot to load "Statocles::Template"?) at /home/neil/perl5/lib/perl5/Statocles/Command.pm line 292, <STDIN> line 4."#
        let diagnosis = try diagnoseText(line + "\n")
        #expect(diagnosis.headline.contains(#"Can't locate object method "new""#), "\(diagnosis.headline)")
        #expect(!PerlDie.isFatal("Use of uninitialized value $x in concatenation (.) or string at x.pl line 5."))
    }

    /// Nim's line for an exception nothing caught, as its test runner and programs print it.
    @Test func nimUnhandledException() {
        #expect(CrashMessageGrammar.match("Error: unhandled exception: index 5 not in 0 .. 2 [IndexDefect]") != nil)
    }

    /// GameMaker's runner (https://github.com/overbound/SonicTimeTwisted/issues/231): the heading,
    /// the event and the object, then past a blank line the error, said as one; 2.x's `ERROR in
    /// action number 1` with no blank line (https://github.com/deltamodders/deltamodkit/issues/3).
    @Test func gameMakerFatalError() throws {
        let text = """
            ___________________________________________
            ############################################################################################
            FATAL ERROR in
            action number 1
            of PreCreate Event
            for object objBoost:

            Unable to find any instance for object index '308' name 'objTitlecard'
             at gml_Room_DD1_f_Create (line 15) - if (objProgram.spawn_tag == 0) objTitlecard.mode = 3;
            ############################################################################################
            """
        let diagnosis = try diagnoseText(text)
        #expect(
            diagnosis.headline.contains("for object objBoost: Unable to find any instance for object index '308'"), "\(diagnosis.headline)")
        let newer = try diagnoseText(
            """
            ERROR in action number 1
            of Alarm Event for alarm 2 for object obj_writer:
            Variable <unknown_object>.obj_face_parent(101841, -2147483648) not set before reading it.
             at gml_Script_scr_textsound (line 571) -             with (obj_face_parent)
            """)
        #expect(newer.headline.contains("obj_face_parent(101841, -2147483648) not set before reading it"), "\(newer.headline)")
    }

    /// The .NET runtime's stack overflow (https://github.com/dotnet/runtime/issues/104495, the tune
    /// text 2711): read, and named a stack overflow, with the repeated frame.
    @Test func dotnetStackOverflow() throws {
        let text = """
            Stack overflow.
            Repeat 10960 times:
            --------------------------------
               at Program.<<Main>$>g__Join|0_8(System.Collections.Generic.IEnumerable`1<System.String>)
            --------------------------------
            """
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.category == .stackOverflow)
        #expect(diagnosis.causes.first?.frames?.first?.contains("g__Join|0_8") == true, "\(diagnosis.causes)")
    }

    /// glibc's stack protector before it aborts, in every form its versions and pastes print
    /// (https://github.com/Buzztrax/buzztrax/issues/149, https://github.com/bahlolab/superSTR/issues/21,
    /// https://github.com/miguelfreitas/twister-core/issues/102 escaped by Markdown): the stated cause.
    @Test func stackProtectorMessage() throws {
        for line in [
            "*** stack smashing detected ***: terminated", "*** stack smashing detected ***: <unknown> terminated",
            #"**\* stack smashing detected ***: ./twisterd terminated"#,
        ] {
            let diagnosis = try diagnoseText(line + "\nAborted (core dumped)\n")
            #expect(diagnosis.headline.contains("stack smashing detected"), "\(diagnosis.headline)")
        }
    }

    /// Rust's exit status as cargo prints it (https://github.com/rimecraft-rs/rimecraft/issues/15).
    @Test func cargoSignalStatus() throws {
        let report = try readPasted(
            "process didn't exit successfully: `/home/yjn024/Documents/projects/rimecraft/target/debug/deps/rimecraft_primitives-5b1de5bb229c4f37` (signal: 11, SIGSEGV: invalid memory reference)\n"
        )
        #expect(report.facts.exception?.signal == "SIGSEGV")
    }

    /// Clojure's error heading with the message under it (https://github.com/clj-python/libpython-clj/issues/13,
    /// https://github.com/metabase/metabase/pull/21637).
    @Test func clojureErrorHeading() throws {
        let execution = try diagnoseText("Execution error (NullPointerException) at tech.jna.base/fn (base.clj:35).\nnull\n")
        #expect(
            execution.headline.contains("Execution error (NullPointerException) at tech.jna.base/fn (base.clj:35)."),
            "\(execution.headline)")
        let syntax = try diagnoseText(
            """
            Syntax error (ClassNotFoundException) compiling at (********/driver/sqlite_test.clj:230:16).
            sql.qp-test-util

            Full report at:
            /tmp/clojure-12125931956503910528.edn
            """)
        #expect(syntax.headline.contains("sql.qp-test-util"), "\(syntax.headline)")
    }

    /// Rust's allocation-failure handler with the shell's `Aborted` glued on
    /// (https://github.com/mikispag/bitiodine/issues/16), PHP's allocator in a panel's log newest
    /// first (https://github.com/PocketMine/PocketMine-MP/issues/2804), CPython's dump of an exception
    /// it could not print (https://github.com/H4cK3dR4Du/Discord-Member-Booster/issues/94).
    @Test func allocatorsAndLostExceptions() throws {
        let rust = try diagnoseText("memory allocation of 23400000000 bytes failedAborted\n")
        #expect(rust.headline.contains("memory allocation of 23400000000 bytes failed"), "\(rust.headline)")
        let php = try diagnoseText(
            """
            24.03 23:48:52 [Multicraft] Looks like a crash, check the server console. Return value: 1
            24.03 23:48:50 [Multicraft] Stopping server!
            24.03 23:48:50 [Server] INFO zend_mm_heap corrupted
            24.03 23:48:49 [Server] INFO Stopping other threads
            """)
        #expect(php.headline.contains("zend_mm_heap corrupted"), "\(php.headline)")
        let python = try diagnoseText(
            """
            object address  : 000001EA74006560
            object refcount : 2
            object type name: RecursionError
            object repr     : RecursionError('maximum recursion depth exceeded while calling a Python object')
            lost sys.stderr
            """)
        #expect(python.headline.contains("maximum recursion depth exceeded"), "\(python.headline)")
        #expect(python.category == .stackOverflow)
    }

    /// A compiler's fatal diagnostic is a failed build, not a crash
    /// (https://github.com/frostney/react-native-create-library/issues/38): refused.
    @Test func compilerFatalErrorIsRefused() {
        #expect(throws: CrashReportError.self) {
            try readPasted(
                """
                fatal error: 'React/RCTBridgeModule.h' file not found
                #import <React/RCTBridgeModule.h>
                        ^
                """)
        }
        #expect(ConsoleLine.isCompilerFatalError("src/main.c:3:10: fatal error: missing.h: No such file or directory"))
        #expect(!ConsoleLine.isCompilerFatalError("fatal error: Index out of range"))
    }

    /// Android's debuggerd reading of the fault in logcat's copy of a tombstone
    /// (https://github.com/frostwire/frostwire-jlibtorrent/issues/240): said as its reading, and the
    /// signal line's `fault addr` is the fault address.
    @Test func debuggerdCauseLine() throws {
        let text = """
            2020-09-24 15:32:44.894 13915-14110/com.apkmatrix.components.ultradownloader.demo A/libc: Fatal signal 11 (SIGSEGV), code 1, fault addr 0x0 in tid 14110 (downloader.demo), pid 13915 (downloader.demo)
            2020-09-24 15:32:44.997 14368-14368/? A/DEBUG: *** *** *** *** *** *** *** *** *** *** *** *** *** *** *** ***
            2020-09-24 15:32:44.997 14368-14368/? A/DEBUG: signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0
            2020-09-24 15:32:44.997 14368-14368/? A/DEBUG: Cause: null pointer dereference
            """
        let report = try readPasted(text)
        #expect(report.facts.reporterDiagnosis?.lines == ["null pointer dereference"])
        let diagnosis = try diagnoseText(text)
        #expect(diagnosis.said.contains("null pointer dereference"), "\(diagnosis.said)")
        #expect(diagnosis.headline.contains("0x0"), "\(diagnosis.headline)")
    }

    /// Julia's signal handler and its native backtrace (https://github.com/JuliaComputing/static-julia/issues/21):
    /// `signal (11):` is the signal, and `f at file:line` lines are frames.
    @Test func juliaSignalAndFrames() throws {
        let text = """
            signal (11): Segmentation fault
            while loading no file, in expression starting on line 0
            jl_is_leaf_type_ at /home/centos/buildbot/slave/package_tarball64/build/src/julia.h:993 [inlined]
            inst_datatype at /home/centos/buildbot/slave/package_tarball64/build/src/jltypes.c:1017
            julia_main at /home/peter/work/HW/GT/proj1/pj-1/2584.jl:112
            main at ./2584 (unknown line)
            """
        let report = try readPasted(text)
        #expect(report.facts.exception?.signal == "SIGSEGV")
        let frames = try #require(report.crashedThread?.frames)
        #expect(frames.map(\.symbol) == ["jl_is_leaf_type_", "inst_datatype", "julia_main", "main"])
        #expect(frames[2].sourceFile == "/home/peter/work/HW/GT/proj1/pj-1/2584.jl" && frames[2].sourceLine == 112)
        #expect(frames[3].sourceFile == nil)
    }
}

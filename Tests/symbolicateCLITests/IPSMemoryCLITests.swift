import Foundation
import SymbolicateTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 26, fault 6: reading an `.ips` cost about 800 bytes per frame above the report's
/// own bytes (a tree of boxed JSON values, their spans, and a second copy of every frame made
/// by symbolication). Measured through the real binary's peak resident memory; the
/// benchmark with the size axis is `Benchmarks/reading/run.sh frames`.
@Suite struct IPSMemoryCLITests {
    /// An `.ips` with `threads` threads of 1,000 frames in Apple's compact layout
    /// (`imageOffset` and `imageIndex`; every tenth frame with `symbol` and `symbolLocation`).
    static func report(threads: Int, framesPerThread: Int = 1000) -> String {
        var text = #"{"bug_type":"309","os_version":"iPhone OS 15.5 (19F77)","app_name":"CrashApp"}"# + "\n"
        text += #"{"bug_type":"309","procName":"CrashApp","faultingThread":0,"usedImages":["#
        text += #"{"base":4295000064,"size":32768,"uuid":"4c4c443b-5555-3144-a1e9-455154cffd57","name":"CrashApp","arch":"arm64"},"#
        text +=
            #"{"base":7410130944,"size":229376,"uuid":"4c4c44ac-5555-3144-a15e-ef58810a0ee6","name":"libsystem_kernel.dylib","arch":"arm64"}"#
        text += #"],"threads":["#
        for t in 0..<threads {
            if t > 0 { text += "," }
            text += #"{"id":\#(1000 + t)\#(t == 0 ? #","triggered":true"# : ""),"frames":["#
            for f in 0..<framesPerThread {
                if f > 0 { text += "," }
                text +=
                    f % 10 == 0
                    ? #"{"imageOffset":\#(4096 + 4 * f),"symbol":"function_\#(f % 97)","symbolLocation":\#(f % 300),"imageIndex":\#(f % 2)}"#
                    : #"{"imageOffset":\#(4096 + 4 * f),"imageIndex":\#(f % 2)}"#
            }
            text += "]}"
        }
        return text + "]}"
    }

    /// Peak resident bytes of one run of the binary (`wait4` gives that child's own figure,
    /// whatever else the test process runs), its standard output into `output`.
    static func peakResidentBytes(_ arguments: [String], output: String, home: String) throws -> Int {
        // A struct on glibc, an opaque pointer on Darwin; posix_spawn_file_actions_init fills both.
        #if canImport(Glibc)
            var actions = posix_spawn_file_actions_t()
        #else
            var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([CLI.binary.path] + arguments).map { strdup($0) } + [nil]
        let environment: [String] = ["HOME=\(home)", "NO_COLOR=1", "SYMBOLICATE_LANGUAGE=en"]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, CLI.binary.path, &actions, nil, argv, envp)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            try #require(errno == EINTR, "wait4: \(errno)")
        }
        // Exit 0, or 1 when images have no debug file (none are given here); never a signal.
        try #require(status & 0x7F == 0 && (status >> 8) & 0xFF <= 1, "wait status \(status)")
        #if os(Linux)
            return Int(usage.ru_maxrss) * 1024
        #else
            return Int(usage.ru_maxrss)
        #endif
    }

    /// 200,000 frames (8 MB) read and written back in their own layout: at most 400 bytes per
    /// frame above the report's bytes and the run of a ten-frame report (the target is ~300;
    /// the old tree took ~800), and the output is the input byte for byte (nothing to
    /// symbolicate).
    @Test func framesCostAFewHundredBytesEach() throws {
        let root = try TestPaths.temporaryDirectory("ips-memory")
        defer { try? FileManager.default.removeItem(at: root) }
        let small = root.appendingPathComponent("small.ips"), large = root.appendingPathComponent("large.ips")
        try Data(Self.report(threads: 1).utf8).write(to: small)
        let text = Self.report(threads: 200)
        try Data(text.utf8).write(to: large)
        let out = root.appendingPathComponent("out.ips").path
        let base = try Self.peakResidentBytes([small.path, "--format", "ips"], output: out, home: root.path)
        let peak = try Self.peakResidentBytes([large.path, "--format", "ips"], output: out, home: root.path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data(text.utf8))
        let perFrame = (peak - base - text.utf8.count) / 200_000
        #expect(perFrame <= 400, "peak \(peak) bytes, baseline \(base), report \(text.utf8.count): \(perFrame) bytes per frame")
    }

    /// Issue 54: one crashed thread of 200,000 frames, nearly all in the app's image (a deep
    /// recursion), rendered as Apple text with its headline. The headline's app's line was
    /// chosen for every app frame before the first was taken (each choice with its arrays and
    /// strings): ~1,000 bytes a frame. It is now searched only as far as the answer.
    @Test func oneLongAppThreadCostsNoMoreThanManyShortOnes() throws {
        let root = try TestPaths.temporaryDirectory("ips-memory-one-thread")
        defer { try? FileManager.default.removeItem(at: root) }
        let small = root.appendingPathComponent("small.ips"), large = root.appendingPathComponent("large.ips")
        try Data(Self.report(threads: 1).utf8).write(to: small)
        let text = Self.report(threads: 1, framesPerThread: 200_000)
        try Data(text.utf8).write(to: large)
        let out = root.appendingPathComponent("out.txt").path
        let base = try Self.peakResidentBytes([small.path, "--format", "text", "--headline"], output: out, home: root.path)
        let peak = try Self.peakResidentBytes([large.path, "--format", "text", "--headline"], output: out, home: root.path)
        let output = try String(contentsOf: URL(fileURLWithPath: out), encoding: .utf8)
        #expect(output.hasPrefix("Crashed: Thread 0"), "\(output.prefix(200))")
        let perFrame = (peak - base - text.utf8.count) / 200_000
        #expect(perFrame <= 450, "peak \(peak) bytes, baseline \(base), report \(text.utf8.count): \(perFrame) bytes per frame")
    }
}

import Foundation
import SymbolicateTestSupport
import Testing

@testable import SymbolicateCrashReport
@testable import SymbolicateExplain

/// The system refusing to start a program (issue 48: any crash text a developer holds): "the app
/// crashed at once" is often the kernel's `execve` failing, said by whatever started it — a shell,
/// `sudo`, fish, Python's `subprocess`, Docker's runc. The words are errno's (`Bad CPU type in
/// executable`, `Exec format error`, `Malformed Mach-o file`); the answer is what the file was
/// built for, not a memory or thread rule. Each line is from the public thread cited.
@Suite struct ExecRefusalTests {
    private func refusal(_ text: String) throws -> ExecRefusalFact {
        try #require(try readPasted(text).facts.execRefusal, "\(text)")
    }

    /// zsh's words, the path after them. https://github.com/m1guelpf/chatgpt-telegram/issues/75
    /// (its holdout20 text) and the same shape from sudo, the path before the words:
    /// https://github.com/QiuChenly/InjectLib/issues/8
    @Test func aShellOrSudoNamesTheProgramItCouldNotRun() throws {
        let zsh = try refusal("zsh: bad CPU type in executable: ./chatgpt-telegram")
        #expect(zsh.reason == .wrongArchitecture && zsh.program == "./chatgpt-telegram")
        let sudo = try refusal("sudo: unable to execute /usr/local/bin/python3: Bad CPU type in executable")
        #expect(sudo.reason == .wrongArchitecture && sudo.program == "/usr/local/bin/python3")
        let diagnosis = try diagnoseText("zsh: bad CPU type in executable: ./chatgpt-telegram")
        #expect(diagnosis.category == .execRefused)
        #expect(diagnosis.headline.contains("./chatgpt-telegram") && diagnosis.headline.contains("bad CPU type"), "\(diagnosis.headline)")
        #expect(diagnosis.causes.first?.text.contains("architecture") == true)
    }

    /// Python's `OSError` with errno's number, the path quoted after it.
    /// https://github.com/ots-downloader/onthespot/issues/123
    @Test func pythonsErrnoLineIsRead() throws {
        let fact = try refusal(
            "[Errno 86] Bad CPU type in executable: '/Applications/OnTheSpot.app/Contents/Frameworks/onthespot/bin/ffmpeg/ffmpeg'")
        #expect(fact.reason == .wrongArchitecture)
        #expect(fact.program == "/Applications/OnTheSpot.app/Contents/Frameworks/onthespot/bin/ffmpeg/ffmpeg")
    }

    /// fish's two lines, `exec:` before the words. https://github.com/jachinlin/ebook-py/issues/11
    @Test func fishsExecLineIsRead() throws {
        let fact = try refusal("Failed to execute process './mac/kindlegen'. Reason:\nexec: Bad CPU type in executable")
        #expect(fact.reason == .wrongArchitecture)
    }

    /// ENOEXEC in a container: Docker's `exec PATH:` and runc's quoted error
    /// (https://github.com/techschool/simplebank/issues/109,
    /// https://github.com/docker-library/mysql/issues/228), bash's `cannot execute binary file` after
    /// a script's line number (https://github.com/themattman/mongodb-raspberrypi-docker/issues/22).
    @Test func anExecFormatErrorIsAnotherPlatformsFile() throws {
        let docker = try refusal("exec /app/start.sh: exec format error")
        #expect(docker.reason == .notExecutableFormat && docker.program == "/app/start.sh")
        let runc = try refusal("standard_init_linux.go:175: exec user process caused \"exec format error\"")
        #expect(runc.reason == .notExecutableFormat && runc.program == nil)
        let bash = try refusal(
            "/usr/local/bin/docker-entrypoint.sh: line 359: /usr/local/bin/mongod: cannot execute binary file: Exec format error")
        #expect(bash.reason == .notExecutableFormat && bash.program == "/usr/local/bin/mongod")
        let diagnosis = try diagnoseText("exec /app/start.sh: exec format error")
        #expect(diagnosis.category == .execRefused)
        #expect(diagnosis.nextSteps.contains { $0.contains("file /app/start.sh") }, "\(diagnosis.nextSteps)")
    }

    /// A person's sentence or question about the error is no refusal: such a text is refused.
    @Test func aSentenceAboutTheErrorIsNotOne() throws {
        #expect(ExecRefusalFact.parse("I get bad CPU type in executable when I run it on my old Mac") == nil)
        #expect(ExecRefusalFact.parse("How do I fix: Bad CPU type in executable?") == nil)
        #expect(throws: (any Error).self) { try readPasted("Why does it say exec format error on my Raspberry Pi?") }
    }

    /// Japanese wording exists for every phrase the rule uses.
    @Test func theVerdictIsWordedInJapanese() throws {
        let report = try readPasted("zsh: bad CPU type in executable: ./tool")
        let diagnosis = diagnose(report, language: .japanese)
        #expect(diagnosis.headline.contains("./tool") && diagnosis.headline.contains("起動"), "\(diagnosis.headline)")
    }
}

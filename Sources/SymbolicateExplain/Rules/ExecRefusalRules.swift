import Foundation
import SymbolicateCrashReport

/// The system refused to start the program (`CrashFacts.execRefusal`): no code of it ran, so no
/// rule about its memory, threads or frames applies. What helps is what the file was built for
/// and what this machine runs.
extension Diagnostician {
    func classifyExecRefusal() -> Verdict? {
        guard let refusal = facts.execRefusal else { return nil }
        found.quote(.label("exec"), refusal.statement)
        let program: Phrase = refusal.program.map { .text($0) } ?? Phrase(.wordTheProgram)
        switch refusal.reason {
        case .wrongArchitecture:
            found.cause(.likely, .causeExecOtherArchitecture)
            found.cause(.possible, .causeExec32Bit)
            found.step(.stepExecCheckArchitecture, ["program": program])
        case .notExecutableFormat:
            found.cause(.likely, .causeExecOtherPlatform)
            found.cause(.possible, .causeExecNotABinary)
            found.step(.stepExecCheckFormat, ["program": program])
        case .malformedExecutable:
            found.cause(.likely, .causeExecDamaged)
            found.step(.stepExecRebuild, ["program": program])
        case .codeSignature:
            found.cause(.likely, .causeExecSignatureRefused)
            // The kill the shell or the runner saw (`Killed: 9`) is that refusal's SIGKILL.
            if let kill = facts.statedMessages.first(where: { $0.family == .signal }) {
                found.quote(Self.evidenceField(kill.source), kill.text)
                found.cause(.likely, .causeAlsoStated, ["line": .text(kill.text)])
            }
            found.cause(.possible, .causeExecDamaged)
            found.step(.stepExecCheckSignature, ["program": program])
        }
        return Verdict(.execRefused, .stated, .verdictExecRefused, ["program": program, "line": .text(refusal.statement)])
    }
}

import Foundation
import SymbolicateCrashReport

/// Phrases the rules build from the report's own facts.
extension Phrase {
    /// A field label as the report prints it (`Exception Type`, `Application Specific
    /// Information`): never translated, so the reader finds it in the report.
    static func label(_ name: String) -> Phrase { .verbatim(name) }
    /// The evidence field of a frame: `Thread 0 frame 3`.
    static func frame(_ thread: Int, _ frame: Int) -> Phrase {
        Phrase(.fieldThreadFrame, ["thread": .text(String(thread)), "frame": .text(String(frame))])
    }
    /// A frame named inside a sentence: `thread 0 frame 3`.
    static func place(_ thread: Int, _ frame: Int) -> Phrase {
        Phrase(.placeThreadFrame, ["thread": .text(String(thread)), "frame": .text(String(frame))])
    }
    /// A jetsam reason in words, the reason itself in parentheses (as `CrashReport.jetsamReason`).
    static func jetsamReason(_ reason: String) -> Phrase {
        let key: PhraseKey? =
            switch reason {
            case "highwater", "per-process-limit": .jetsamReasonOwnLimit
            case "vm-thrashing": .jetsamReasonVMThrashing
            case "fc-thrashing": .jetsamReasonFileCacheThrashing
            case "vnode-limit": .jetsamReasonVnodeLimit
            case "memory-pressure", "jettisoned": .jetsamReasonPressure
            case "idle-exit": .jetsamReasonIdleExit
            default: nil
            }
        return key.map { Phrase($0, ["reason": .text(reason)]) } ?? .text(reason)
    }

    /// A frame of an Application Specific Backtrace (older reports' exception backtrace):
    /// `Application Specific Backtrace 1 frame 3`.
    static func applicationSpecificFrame(_ backtrace: Int, _ frame: Int) -> Phrase {
        Phrase(.fieldApplicationSpecificFrame, ["number": .text(String(backtrace)), "frame": .text(String(frame))])
    }

    /// A frame of the exception backtrace: `Last Exception Backtrace frame 2`.
    static func exceptionFrame(_ frame: Int) -> Phrase {
        Phrase(.fieldExceptionFrame, ["frame": .text(String(frame))])
    }
}

extension Frame {
    /// `MyApp + 0x1234`: the image and the offset, for a frame without a name.
    var imageAndOffset: Phrase {
        .verbatim("\(imageName ?? "?")\(imageOffset.map { " + " + hex($0) } ?? "")")
    }
}

extension CrashReport {
    /// The file that names this report's frames, in words.
    var debugFilePhrase: Phrase { Phrase(facts.platform.platform == .linux ? .debugFileLinux : .debugFileDSYM) }

    /// The debug file that names `frame`: the dSYM of its image's build (the UUID the report
    /// gives, and the app's version for the app's executable), so a user who gave another
    /// build's dSYM is told which one to fetch; `debugFilePhrase` when the report has no UUID.
    func debugFilePhrase(for frame: Frame) -> Phrase {
        guard facts.platform.platform != .linux, let image = image(for: frame), let uuid = image.debugID else { return debugFilePhrase }
        let isExecutable = image.path.map { $0 == processPath } ?? (image.name == processName)
        let version = image.version ?? (isExecutable ? appVersion : nil)
        if let version, !version.isEmpty {
            return Phrase(
                .debugFileDSYMOfVersion, ["image": .text(image.name), "uuid": .text(uuid.description), "version": .text(version)])
        }
        return Phrase(.debugFileDSYMOfBuild, ["image": .text(image.name), "uuid": .text(uuid.description)])
    }
}

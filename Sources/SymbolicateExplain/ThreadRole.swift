import Foundation
import SymbolicateCrashReport

/// What the crashed thread was: the main thread or another, its queue, and the calls on it that
/// only the main thread may make. UIKit and AppKit classes are to be used from the main thread
/// (Apple's UIKit and AppKit documentation; Xcode's Main Thread Checker reports the calls that
/// are not), `dispatch_assert_queue` on the main queue and the Swift runtime's `@MainActor`
/// isolation checks stop a process that breaks the rule.
struct ThreadRole {
    let thread: CrashReport.Thread
    let isMain: Bool
    /// Crashed-thread frames that must run on the main thread (UI view and application
    /// methods), innermost first, at most three.
    let mainOnlyFrames: [Frame]
    /// A check that stopped the process because code was not on the queue or actor it
    /// required (`_dispatch_assert_queue_fail`, `swift_task_reportUnexpectedExecutor`).
    let isolationCheck: Frame?
    /// Indices of `mainOnlyFrames` that come from the Last Exception Backtrace.
    let exceptionFrames: Set<Int>

    /// Classes of the UI frameworks whose instances belong to the main thread: views, windows,
    /// controllers, the application, and their relatives.
    static let mainOnlyClassPrefixes = ["UI", "NS", "_UI", "_NS"]
    static let mainOnlyClassWords = [
        "View", "Window", "Application", "Controller", "Screen", "Responder", "Scene", "Menu", "Button", "Label", "Control",
        "TextField", "Bar",
    ]
    static let uiImages = ["UIKitCore", "UIKit", "AppKit", "SwiftUI", "SwiftUICore"]
    static let isolationNames = [
        "_dispatch_assert_queue_fail", "dispatch_assert_queue", "swift_task_reportUnexpectedExecutor", "swift_task_checkIsolated",
        "_swift_task_checkIsolatedSwift", "checkIsolated", "preconditionIsolated", "assumeIsolated",
    ]

    init?(report: CrashReport) {
        guard let thread = report.crashedThread else { return nil }
        // A thread a crash service lists without a name (or as just `Thread`) has no number of
        // the process's either: whether it is the main thread is unknown, and nothing is claimed.
        if thread.isNumberedByReader, !thread.runsMainQueue, [nil, "", "Thread"].contains(thread.queue ?? thread.name) { return nil }
        self.thread = thread
        isMain = report.isMainThread(thread)
        let top = thread.frames.prefix(32)
        // An uncaught exception ends on the thread that threw it: its Last Exception Backtrace
        // holds the calls that thread made.
        let thrown = report.lastExceptionBacktrace?.frames.prefix(32) ?? []
        mainOnlyFrames = Array((top.filter(Self.isMainOnly) + thrown.filter(Self.isMainOnly)).prefix(3))
        exceptionFrames = Set(thrown.filter(Self.isMainOnly).map(\.index))
        isolationCheck = top.prefix(12).first { frame in
            frame.functionNames.contains { name in Self.isolationNames.contains { name.containsBytes($0) } }
        }
    }

    /// An Objective-C method of a UI class in a UI framework (`-[UIView setNeedsLayout]`,
    /// `-[NSWindow setFrame:display:]`).
    static func isMainOnly(_ frame: Frame) -> Bool {
        guard let image = frame.imageName, uiImages.contains(image) else { return false }
        guard let name = frame.functionNames.first, name.hasPrefix("-[") || name.hasPrefix("+[") else { return false }
        let className = name.dropFirst(2).prefix { $0 != " " && $0 != "(" }
        guard mainOnlyClassPrefixes.contains(where: { className.hasPrefix($0) }) else { return false }
        return mainOnlyClassWords.contains { className.containsBytes($0) }
    }

    /// `Thread 16 (queue com.apple.root.default-qos)`.
    var label: Phrase {
        var parts: [Phrase] = []
        if let name = thread.name, !name.isEmpty { parts.append(.verbatim("\"\(name)\"")) }
        if let queue = thread.queue, !queue.isEmpty { parts.append(Phrase(.wordQueue, ["queue": .text(queue)])) }
        let thread = Phrase(.fieldThread, ["thread": .text(String(thread.index))])
        return parts.isEmpty ? thread : .sequence([thread, Phrase(.wordParenthesized, ["what": .list(parts)])])
    }

    /// The role in words, for the evidence line.
    var summary: Phrase {
        Phrase(isMain ? .roleMainThread : .roleNotMainThread, ["thread": label])
    }

    /// The evidence that a main-thread-only call ran elsewhere: a UI method or an isolation
    /// check on a thread that is not the main one.
    var offMainEvidence: [Frame] {
        guard !isMain else { return [] }
        var frames = mainOnlyFrames
        if let check = isolationCheck, !frames.contains(where: { $0.index == check.index }) { frames.insert(check, at: 0) }
        return frames
    }
}

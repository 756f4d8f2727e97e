/// A framework's words that a call it takes only on the main thread came from another thread:
/// AppKit's `NSWindow drag regions should only be invalidated on the Main Thread!`, UIKit's
/// `-[UIKeyboardTaskQueue waitUntilAllTasksAreFinished] may only be called from the main thread.`
/// and `Call must be made on main thread`, an assertion's `Not on main thread`, Xamarin's `…can
/// only be invoked from the UI thread`. Frameworks raise such a reason or assert with it, and the
/// process stops; a text often holds nothing else.
///
/// Read as a sentence, not a list: it names the main thread (or queue, or a UI thread) together
/// with a requirement (`only`, `must`, `required`, `expected`), or names another thread together
/// with a call that came from it. Advice about blocking the main thread (`This method should not
/// be called on the main thread as it may lead to UI unresponsiveness`) is the opposite
/// requirement, a warning, and is no such statement; nor is a queue's name (`com.apple.main-thread`).
enum MainThreadRequirement {
    /// Literals one of which such a line holds (case as frameworks print them).
    static let literals = [
        "main thread", "Main thread", "Main Thread", "MAIN THREAD", "main-thread", "Main-Thread", "ainThread", "main queue",
        "Main queue", "Main Queue", "UI thread", "ui thread", "UI Thread", "ackground thread", "econdary thread",
        "on-main thread", "onmain thread",
    ]

    static let isStatement: @Sendable (Substring) -> Bool = { text in
        guard text.utf8.count <= 600 else { return false }
        let words = Words(text)
        guard words.namesMain || words.namesOther else { return false }
        if words.warns || words.asksOffMain { return false }
        if words.namesMain && (words.requires || words.saysNotOnMain) { return true }
        return words.namesOther && (words.requires || words.saysCalled)
    }

    /// The line lowercased, with the queue's name taken out, and what it says.
    private struct Words {
        let text: String

        init(_ line: Substring) {
            var lower = line.lowercased()
            for name in ["com.apple.main-thread", "com.apple.main-queue"] {
                lower = lower.replacingOccurrences(of: name, with: " ")
            }
            // Code's spelling (`[NSThread isMainThread]`, `Thread.isMainThread`, `dispatch_get_main_queue`).
            text =
                " "
                + lower.replacingOccurrences(of: "mainthread", with: "main thread")
                .replacingOccurrences(of: "main_queue", with: "main queue").replacingOccurrences(of: "main-thread", with: "main thread")
                + " "
        }

        func has(_ phrase: String) -> Bool { text.containsBytes(phrase) }

        /// Whole words: a phrase with a non-letter on each side.
        func hasWord(_ word: String) -> Bool {
            var from = text.startIndex
            while let range = text[from...].range(of: word) {
                let before = text[text.index(before: range.lowerBound)]
                let after = range.upperBound < text.endIndex ? text[range.upperBound] : " "
                if !before.isLetter && !after.isLetter { return true }
                from = range.upperBound
            }
            return false
        }

        var namesMain: Bool { has("main thread") || has("main queue") || has("main dispatch queue") || has("ui thread") }

        var namesOther: Bool {
            ["background thread", "secondary thread", "non-main thread", "non main thread", "nonmain thread", "a different thread"]
                .contains(where: has)
        }

        /// A requirement or an expectation stated.
        var requires: Bool {
            ["only", "must", "required", "requires", "expected", "expects"].contains(where: hasWord)
        }

        /// The state: `not on the main thread`, `off the main thread`, `is not main thread`.
        var saysNotOnMain: Bool {
            [
                "not on the main", "not on main", "not the main", "not main thread", "not in the main", "not running on the main",
                "not called on the main", "not called from the main", "outside the main", "outside of the main", "other than the main",
                "off the main thread", "off main thread",
            ].contains(where: has)
        }

        /// A call, a use or a change that came from the other thread.
        var saysCalled: Bool {
            [
                "called", "calling", "used", "using", "accessed", "accessing", "invoked", "invoking", "modified", "modifying", "performed",
                "changed", "changing", "updated", "updating",
            ].contains(where: hasWord)
        }

        /// Advice or a warning about the main thread's responsiveness, which nothing stops for.
        var warns: Bool {
            [
                "may lead to", "can lead to", "could lead to", "unresponsive", "priority inversion", "make sure", "performance",
                "warning", "consider ",
            ].contains(where: has) || hasWord("hang") || hasWord("hangs")
        }

        /// A requirement to stay off the main thread (`should not be called on the main thread`,
        /// `must not be performed on the main thread`): the opposite check, when it names no other thread.
        var asksOffMain: Bool {
            guard namesMain, !namesOther else { return false }
            for negation in ["not be ", "never be ", "n't be "] {
                var from = text.startIndex
                while let range = text[from...].range(of: negation) {
                    let rest = text[range.upperBound...].prefix(40)
                    if rest.containsBytes(" the main thread") || rest.containsBytes(" main thread") || rest.containsBytes(" main queue") {
                        return true
                    }
                    from = range.upperBound
                }
            }
            return false
        }
    }
}

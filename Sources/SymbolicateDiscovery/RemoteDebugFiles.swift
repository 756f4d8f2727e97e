import SymbolicateCore

/// One build of one image a report names, asked of the places debug files are kept away
/// from this machine (symbol servers, debuginfod, dsymForUUID, their cache).
package struct WantedDebugFile: Hashable, Sendable {
    package var id: DebugID
    package var architecture: Architecture?
    /// The image's file name (`App`, `libfoo.so`): a URL template's `{name}`, and messages.
    package var name: String
    /// App images are worth a word when no source has them; system libraries are not.
    package var isAppImage: Bool
    /// False when `name` only stands in for a name nobody gave (atos `--uuid` without `-o`):
    /// a URL template with `{name}` is then not asked (it would hold the stand-in).
    package var nameIsKnown: Bool

    package init(id: DebugID, architecture: Architecture?, name: String, isAppImage: Bool = false, nameIsKnown: Bool = true) {
        self.id = id
        self.architecture = architecture
        self.name = name
        self.isAppImage = isAppImage
        self.nameIsKnown = nameIsKnown
    }
}

/// Debug files from elsewhere, asked only for images the local debug files did not answer
/// (`SymbolicateSymbolSources` implements it; the `Annotator` asks). Implementations answer
/// each identity once per run however many reports ask (batch mode), and never throw: what
/// went wrong is a message.
package protocol RemoteDebugFiles: AnyObject, Sendable {
    /// Fetches these builds, several at once, so that a report (or a batch) waits for its
    /// downloads side by side rather than one after the other.
    func prefetch(_ wanted: [WantedDebugFile])
    /// The debug files found for one build (fetched now when `prefetch` was not asked);
    /// empty when no source has it. Entries are checked: their identity is the one asked for.
    func entries(for wanted: WantedDebugFile) -> [DebugFileEntry]
    /// Lines to show the user (a server down, a status, a refused file), each once, in order.
    func takeMessages() -> [String]
}

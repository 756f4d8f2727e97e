/// A `TextOutputStream` that hands its text on in pieces of about a mebibyte, so a large output
/// (a report of a million frames is hundreds of megabytes of text) goes to a file or standard
/// output as it is rendered and is never held whole.
struct TextChunks: TextOutputStream {
    private var buffer = ""
    private let size: Int
    private let deliver: (String) throws -> Void
    /// The first error `deliver` threw; nothing is delivered after it.
    private(set) var error: (any Error)?

    init(size: Int = 1 << 20, deliver: @escaping (String) throws -> Void) {
        self.size = size
        self.deliver = deliver
    }

    mutating func write(_ string: String) {
        guard error == nil else { return }
        buffer += string
        if buffer.utf8.count >= size { flush() }
    }

    /// Delivers what is held.
    mutating func flush() {
        guard error == nil, !buffer.isEmpty else { return }
        do { try deliver(buffer) } catch { self.error = error }
        buffer = ""
    }
}

/// Where `report`'s text output goes as it is rendered when the caller prints it itself (the
/// command line): the messages so far before each report's text, then the text in pieces.
public struct StandardOutputSink: Sendable {
    /// Prints messages (what `ReportResponse.messages` would have held until then).
    public var messages: @Sendable ([ReportMessage]) -> Void
    /// Prints a piece of the output; a thrown error ends the run (`cannotWrite`).
    public var text: @Sendable (String) throws -> Void

    public init(messages: @escaping @Sendable ([ReportMessage]) -> Void, text: @escaping @Sendable (String) throws -> Void) {
        self.messages = messages
        self.text = text
    }
}

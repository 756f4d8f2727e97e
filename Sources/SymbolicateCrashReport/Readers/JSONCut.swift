import Foundation

/// A JSON document cut off before its end (an `.ips` body pasted into an issue, a chat or a
/// mail): the longest prefix that ends after a complete value, with the brackets still open
/// closed, so it is read as far as it goes. Only ever the document's own bytes are kept; a
/// member whose value the cut split (`"imageOffset": 12` of `123456`, a string without its
/// closing quote, a key without its value) is dropped whole.
enum JSONCut {
    /// The cut document closed, or nil when `bytes` is not the start of a JSON object or array
    /// that the cut left open (a complete document, or one broken somewhere else, is not
    /// repaired: the parser's own error says what is wrong with it). One pass, no recursion.
    static func close(_ bytes: [UInt8]) -> [UInt8]? {
        // A paste ends with a line break; a cut inside a string then ends in one too.
        var end = bytes.count
        while end > 0, isBlank(bytes[end - 1]) { end -= 1 }
        /// The open brackets, each with the end of the longest closable prefix before it opened
        /// and whether a bracket opened inside it.
        var stack: [(open: UInt8, safeBefore: Int, hasChild: Bool)] = []
        var i = 0
        while i < end, isBlank(bytes[i]) { i += 1 }
        guard i < end, bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[") else { return nil }
        /// End of the longest prefix that closes to a whole document.
        var safe = 0
        /// In an object, whether the next string is a key.
        var expectKey = false
        while i < end {
            let byte = bytes[i]
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if !stack.isEmpty { stack[stack.count - 1].hasChild = true }
                stack.append((byte, safe, false))
                expectKey = byte == UInt8(ascii: "{")
                i += 1
                safe = i
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let open = stack.popLast()?.open, (open == UInt8(ascii: "{")) == (byte == UInt8(ascii: "}")) else { return nil }
                i += 1
                // The document closed before the end: not a cut document.
                if stack.isEmpty { return nil }
                expectKey = false
                safe = i
            case UInt8(ascii: "\""):
                let isKey = expectKey && stack.last?.open == UInt8(ascii: "{")
                i += 1
                var closed = false
                while i < end {
                    if bytes[i] == UInt8(ascii: "\\") {
                        i += 2
                        continue
                    }
                    if bytes[i] == UInt8(ascii: "\"") {
                        closed = true
                        i += 1
                        break
                    }
                    i += 1
                }
                if closed, !isKey { safe = i }
                expectKey = false
            case UInt8(ascii: ","):
                expectKey = stack.last?.open == UInt8(ascii: "{")
                i += 1
            case UInt8(ascii: ":"):
                expectKey = false
                i += 1
            case _ where isBlank(byte):
                i += 1
            default:
                // A number or literal: complete only when something follows it.
                while i < end, !isDelimiter(bytes[i]) { i += 1 }
                if i < end { safe = i }
            }
        }
        guard !stack.isEmpty, safe > 0 else { return nil }
        // The brackets open at `safe` are the ones open at the end: none opened or closed after it.
        // An object of a list that holds no bracket itself (a frame, an image, a register) is
        // dropped whole when cut: half a frame (`{"imageIndex": 0}` without its offset) would
        // read as a frame at address 0.
        if stack.count > 1, let top = stack.last, top.open == UInt8(ascii: "{"), !top.hasChild,
            stack[stack.count - 2].open == UInt8(ascii: "[")
        {
            safe = top.safeBefore
            stack.removeLast()
        }
        var out = Array(bytes[..<safe])
        // A comma before the cut point would leave `[1,]`: `safe` always ends a value or an opener.
        for entry in stack.reversed() { out.append(entry.open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")) }
        return out
    }

    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        isBlank(byte) || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            || byte == UInt8(ascii: ":")
    }
}

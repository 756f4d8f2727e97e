import Foundation

/// Where a `.plcrash` message is broken, found by walking its protobuf encoding with the
/// shape of the report's messages: the byte offset (in the file) and the field path of the
/// first thing that cannot be read.
///
/// swift-protobuf says only that a message does not decode; a user holding a damaged file is
/// told where. This walk runs only after decoding failed, so it costs nothing on good files.
enum PLCrashDamage {
    struct Finding: Equatable {
        /// Byte offset in the file (the 8-byte header included).
        var offset: Int
        /// `threads[0].frames[3]`: the field being read.
        var place: String
        var message: String
        /// The data ended inside a value: a cut file rather than a corrupted one.
        var truncated: Bool
    }

    /// The first damage in `message` (the bytes after the header), or nil when the walk finds
    /// none. `base` is the offset of `message` in the file.
    static func find(in message: ArraySlice<UInt8>, base: Int) -> Finding? {
        var walker = Walker(bytes: message, base: base)
        return walker.walk(.report, from: message.startIndex, to: message.endIndex, place: "", depth: 0)
    }

    /// The report's messages, as far as the walk needs them: which fields hold a nested
    /// message, which hold text, and the wire type each field must have.
    enum Message {
        case report, processor, systemInfo, applicationInfo, symbol, thread, frame, register, image, exception, signal
        case machException, processInfo, machineInfo, reportInfo

        func field(_ number: UInt64) -> (name: String, shape: Shape)? {
            switch (self, number) {
            case (.report, 1): ("system_info", .message(.systemInfo))
            case (.report, 2): ("application_info", .message(.applicationInfo))
            case (.report, 3): ("threads", .repeatedMessage(.thread))
            case (.report, 4): ("binary_images", .repeatedMessage(.image))
            case (.report, 5): ("exception", .message(.exception))
            case (.report, 6): ("signal", .message(.signal))
            case (.report, 7): ("process_info", .message(.processInfo))
            case (.report, 8): ("machine_info", .message(.machineInfo))
            case (.report, 9): ("report_info", .message(.reportInfo))
            case (.report, 10): ("custom_data", .bytes)
            case (.processor, 1): ("encoding", .varint)
            case (.processor, 2): ("type", .varint)
            case (.processor, 3): ("subtype", .varint)
            case (.systemInfo, 1): ("operating_system", .varint)
            case (.systemInfo, 2): ("os_version", .text)
            case (.systemInfo, 3): ("architecture", .varint)
            case (.systemInfo, 4): ("timestamp", .varint)
            case (.systemInfo, 5): ("os_build", .text)
            case (.applicationInfo, 1): ("identifier", .text)
            case (.applicationInfo, 2): ("version", .text)
            case (.applicationInfo, 3): ("marketing_version", .text)
            case (.symbol, 1): ("name", .text)
            case (.symbol, 2): ("start_address", .varint)
            case (.symbol, 3): ("end_address", .varint)
            case (.thread, 1): ("thread_number", .varint)
            case (.thread, 2): ("frames", .repeatedMessage(.frame))
            case (.thread, 3): ("crashed", .varint)
            case (.thread, 4): ("registers", .repeatedMessage(.register))
            case (.frame, 3): ("pc", .varint)
            case (.frame, 6): ("symbol", .message(.symbol))
            case (.register, 1): ("name", .text)
            case (.register, 2): ("value", .varint)
            case (.image, 1): ("base_address", .varint)
            case (.image, 2): ("size", .varint)
            case (.image, 3): ("name", .text)
            case (.image, 4): ("uuid", .bytes)
            case (.image, 5): ("code_type", .message(.processor))
            case (.exception, 1): ("name", .text)
            case (.exception, 2): ("reason", .text)
            case (.exception, 3): ("frames", .repeatedMessage(.frame))
            case (.signal, 1): ("name", .text)
            case (.signal, 2): ("code", .text)
            case (.signal, 3): ("address", .varint)
            case (.signal, 4): ("mach_exception", .message(.machException))
            case (.machException, 1): ("type", .varint)
            case (.machException, 2): ("codes", .repeatedVarint)
            case (.processInfo, 1): ("process_name", .text)
            case (.processInfo, 2): ("process_id", .varint)
            case (.processInfo, 3): ("process_path", .text)
            case (.processInfo, 4): ("parent_process_name", .text)
            case (.processInfo, 5): ("parent_process_id", .varint)
            case (.processInfo, 6): ("native", .varint)
            case (.processInfo, 7): ("start_time", .varint)
            case (.machineInfo, 1): ("model", .text)
            case (.machineInfo, 2): ("processor", .message(.processor))
            case (.machineInfo, 3): ("processor_count", .varint)
            case (.machineInfo, 4): ("logical_processor_count", .varint)
            case (.reportInfo, 1): ("user_requested", .varint)
            case (.reportInfo, 2): ("uuid", .bytes)
            default: nil
            }
        }
    }

    enum Shape {
        case varint, text, bytes, repeatedVarint
        case message(Message)
        case repeatedMessage(Message)
    }

    /// Nesting deeper than any report has (a report nests five levels) is damage, not data.
    static let maxDepth = 32

    struct Walker {
        let bytes: ArraySlice<UInt8>
        let base: Int
        /// Occurrences of each repeated field seen so far, per path, for `threads[2]`.
        var counts: [String: Int] = [:]

        init(bytes: ArraySlice<UInt8>, base: Int) {
            self.bytes = bytes
            self.base = base
        }

        func fileOffset(_ index: Int) -> Int { base + (index - bytes.startIndex) }

        /// A varint at `i`: its value and the index after it, or the finding that stops the walk.
        func varint(at i: Int, end: Int, place: String) -> Result<(UInt64, Int), FindingBox> {
            var value: UInt64 = 0
            var j = i
            var shift: UInt64 = 0
            while true {
                guard j < end else {
                    return .failure(
                        FindingBox(Finding(offset: fileOffset(i), place: place, message: "the data ends inside a varint", truncated: true)))
                }
                let b = bytes[j]
                if shift == 63, b > 1 {
                    return .failure(
                        FindingBox(Finding(offset: fileOffset(i), place: place, message: "varint overflows 64 bits", truncated: false)))
                }
                value |= UInt64(b & 0x7F) << shift
                j += 1
                if b & 0x80 == 0 { return .success((value, j)) }
                shift += 7
                if shift > 63 {
                    return .failure(
                        FindingBox(Finding(offset: fileOffset(i), place: place, message: "varint longer than 10 bytes", truncated: false)))
                }
            }
        }

        mutating func walk(_ message: Message, from start: Int, to end: Int, place: String, depth: Int) -> Finding? {
            guard depth < PLCrashDamage.maxDepth else {
                return Finding(offset: fileOffset(start), place: place, message: "messages nested too deep", truncated: false)
            }
            var i = start
            while i < end {
                let tagStart = i
                let tag: UInt64
                switch varint(at: i, end: end, place: place) {
                case .failure(let box): return box.finding
                case .success(let (v, next)):
                    tag = v
                    i = next
                }
                let number = tag >> 3
                let wireType = tag & 7
                guard number > 0, number < (1 << 29) else {
                    return Finding(
                        offset: fileOffset(tagStart), place: place, message: "field number \(number) is not valid", truncated: false)
                }
                let known = message.field(number)
                let name = known.map { place.isEmpty ? $0.name : place + "." + $0.name } ?? "\(place.isEmpty ? "" : place + ".")#\(number)"
                var here = name
                if let known {
                    switch known.shape {
                    case .repeatedMessage, .repeatedVarint:
                        let n = counts[name, default: 0]
                        counts[name] = n + 1
                        here = "\(name)[\(n)]"
                    default: break
                    }
                }
                switch wireType {
                case 0:
                    if let shape = known?.shape {
                        switch shape {
                        case .varint, .repeatedVarint: break
                        default:
                            return Finding(
                                offset: fileOffset(tagStart), place: here, message: "a number where a length-delimited value belongs",
                                truncated: false)
                        }
                    }
                    switch varint(at: i, end: end, place: here) {
                    case .failure(let box): return box.finding
                    case .success(let (_, next)): i = next
                    }
                case 1, 5:
                    let width = wireType == 1 ? 8 : 4
                    if known != nil {
                        return Finding(
                            offset: fileOffset(tagStart), place: here, message: "a fixed-width value where the format has none",
                            truncated: false)
                    }
                    guard end - i >= width else {
                        return Finding(
                            offset: fileOffset(i), place: here, message: "the data ends inside a \(width)-byte value", truncated: true)
                    }
                    i += width
                case 2:
                    let length: UInt64
                    switch varint(at: i, end: end, place: here) {
                    case .failure(let box): return box.finding
                    case .success(let (v, next)):
                        length = v
                        i = next
                    }
                    guard length <= UInt64(end - i) else {
                        let cut = Finding(
                            offset: fileOffset(tagStart), place: here,
                            message: "a value of \(length) bytes, but only \(end - i) are left", truncated: end == bytes.endIndex)
                        // A file cut inside a nested message: name the innermost field the cut falls in.
                        guard cut.truncated else { return cut }
                        switch known?.shape {
                        case .message(let inner)?, .repeatedMessage(let inner)?:
                            return walk(inner, from: i, to: end, place: here, depth: depth + 1) ?? cut
                        default:
                            return cut
                        }
                    }
                    let valueEnd = i + Int(length)
                    switch known?.shape {
                    case .message(let inner)?, .repeatedMessage(let inner)?:
                        if let finding = walk(inner, from: i, to: valueEnd, place: here, depth: depth + 1) { return finding }
                    case .text?:
                        if String(validating: bytes[i..<valueEnd], as: UTF8.self) == nil {
                            return Finding(offset: fileOffset(i), place: here, message: "text that is not UTF-8", truncated: false)
                        }
                    case .repeatedVarint?:
                        var j = i
                        while j < valueEnd {
                            switch varint(at: j, end: valueEnd, place: here) {
                            case .failure(let box): return box.finding
                            case .success(let (_, next)): j = next
                            }
                        }
                    case .varint?:
                        return Finding(
                            offset: fileOffset(tagStart), place: here, message: "a length-delimited value where a number belongs",
                            truncated: false)
                    case .bytes?, nil:
                        break
                    }
                    i = valueEnd
                default:
                    return Finding(
                        offset: fileOffset(tagStart), place: here, message: "wire type \(wireType) is not used by the format",
                        truncated: false)
                }
            }
            return nil
        }
    }

    /// A finding carried through `Result` (which wants an `Error`).
    struct FindingBox: Error {
        var finding: Finding
        init(_ finding: Finding) { self.finding = finding }
    }
}

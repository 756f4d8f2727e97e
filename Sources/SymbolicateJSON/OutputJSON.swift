import Foundation

/// The one set of settings for JSON the tool writes (`--format json`, explain's JSON,
/// summary.json, the `.ips` writer's model dump): pretty, keys sorted so output can be diffed
/// and tested, slashes unescaped so paths read as paths.
package enum OutputJSON {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// `value` encoded with those settings, or nil when it cannot be encoded.
    package static func text<T: Encodable>(_ value: T) -> String? {
        guard let data = try? encoder().encode(value) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
